import type { BackendFactory } from '../../core/backend.ts';
import type { Capability } from '../../core/capabilities.ts';
import { createEngine } from '../../core/engine.ts';
import { worldModelHandlers } from '../../canon/world-model-ops.ts';
import { FsStore } from './fs-store.ts';

const CAPABILITIES: readonly Capability[] = [
  'attachments', 'project-scope', 'user-scope', 'custom-scope', 'imports', 'durable', 'concurrent-writers', 'multi-process', 'layout:directory',
  'world-model', 'receipts',
];

/** The default backend: the seed's `.prose/` directory layout (filesystem.md). */
export const filesystemFactory: BackendFactory = {
  name: 'filesystem',
  kind: 'directory',
  capabilities: CAPABILITIES,
  description: 'the seed layout: .prose/runs/{id}/ with program.prose, state.md, bindings/, agents/, attachments/, imports/',
  async open(env) {
    const store = new FsStore(env.projectDir, env.homeDir, env.decisions);
    return createEngine({ store, extraHandlers: worldModelHandlers(store), decisions: env.decisions, capabilities: CAPABILITIES });
  },
};
