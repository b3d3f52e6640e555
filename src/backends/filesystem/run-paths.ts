import { join } from 'node:path';
import type { AgentLocation, RunRef } from '../../core/model.ts';
import { runDir } from '../../core/seed-layout.ts';

/** Where the seed layout puts things, for one project and one home directory. */
export class RunPaths {
  constructor(
    readonly projectDir: string,
    readonly homeDir: string,
  ) {}

  get proseDir(): string {
    return join(this.projectDir, '.prose');
  }

  /** The directory of a run reference, checked (core/seed-layout.ts). */
  runDir(run: RunRef): string {
    return runDir(this.projectDir, run);
  }

  agentDir(loc: AgentLocation): string {
    switch (loc.scope) {
      case 'execution':
        return join(this.runDir(loc.run!), 'agents', loc.agent);
      case 'project':
        return join(this.proseDir, 'agents', loc.agent);
      case 'user':
        return join(this.homeDir, '.prose', 'agents', loc.agent);
      case 'custom':
        return join(this.projectDir, loc.path!, loc.agent);
    }
  }

  /** `{name}.md` at root, `{name}__{execution_id}.md` in a frame. */
  static bindingFile(name: string, executionId: number | null): string {
    return executionId === null ? `${name}.md` : `${name}__${executionId}.md`;
  }
}
