import type { Backend, BackendFactory } from '../../core/backend.ts';
import type { Decisions } from '../../core/decisions.ts';
import type { StateStore } from '../../core/store.ts';
import type { Capability } from '../../core/capabilities.ts';
import { createBackend } from '../../core/semantics.ts';
import { worldModelHandlers } from '../../canon/world-model-ops.ts';
import { commitReadingsOf } from '../../canon/commit-readings.ts';
import { FsCurrentStore } from './current-store.ts';
import { FsStore } from './fs-store.ts';

const CAPABILITIES: readonly Capability[] = [
  'attachments',
  'project-scope',
  'user-scope',
  'custom-scope',
  'imports',
  'durable',
  'concurrent-writers',
  'multi-process',
  'layout:directory',
  'edition:v0',
  'edition:current',
  'subagent-writes',
  'world-model',
  'receipts',
];

/**
 * The default backend: the seed's `.prose/` directory layout (v0 filesystem.md), or with `env.edition` 'current' the
 * current filesystem.md's `<openprose-root>` tree (current-store.ts).
 */
export const filesystemFactory: BackendFactory = {
  name: 'filesystem',
  kind: 'directory',
  capabilities: CAPABILITIES,
  description:
    'the seed layout: .prose/runs/{id}/ with program.prose, state.md, bindings/, agents/, attachments/, imports/; ' +
    'edition current: runs/{id}/ with root.prose.md, vm.log.md, world-model/, receipts/; durable state/',
  async open(env) {
    const store =
      env.edition === 'current'
        ? new FsCurrentStore(env.projectDir, env.homeDir, env.decisions)
        : new FsStore(env.projectDir, env.homeDir, env.decisions);
    return filesystemBackend(store, env.decisions);
  },
};

/** The backend over a store: the one place the filesystem backend is assembled (the selftest's mutants reuse it). */
export function filesystemBackend(store: StateStore, decisions: Decisions): Backend {
  // The filesystem backend follows the readings the run pins, so each is shown passable (decisions skip-rule, semantic-diff).
  const extraHandlers = worldModelHandlers(store, commitReadingsOf(decisions));
  return createBackend({ store, extraHandlers, decisions, capabilities: CAPABILITIES });
}
