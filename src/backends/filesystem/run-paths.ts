import { join } from 'node:path';
import { editionLayout, type Edition } from '../../core/editions.ts';
import { ProseError } from '../../core/errors.ts';
import type { AgentLocation, RunRef } from '../../core/model.ts';
import { editionRunDir } from '../../core/seed-layout.ts';

/**
 * Where one edition's layout puts things, for one project and one home directory: the seed's `.prose/` tree (v0)
 * or `<openprose-root>` = the project directory (current; SKILL.md "OpenProse Root").
 */
export class RunPaths {
  constructor(
    readonly projectDir: string,
    readonly homeDir: string,
    readonly edition: Edition = 'v0',
  ) {}

  get proseDir(): string {
    return join(this.projectDir, '.prose');
  }

  /** The directory of a run reference, checked (core/seed-layout.ts). */
  runDir(run: RunRef): string {
    return editionRunDir(this.projectDir, run, this.edition);
  }

  agentDir(loc: AgentLocation): string {
    const layout = editionLayout(this.edition);
    switch (loc.scope) {
      case 'execution':
        return join(this.runDir(loc.run!), 'agents', loc.agent);
      case 'project':
        return join(this.projectDir, ...layout.projectAgentsDir.split('/'), loc.agent);
      case 'user':
        return join(this.homeDir, ...layout.userAgentsDir.split('/'), loc.agent);
      case 'custom':
        // fs "Memory Scoping" (current) lists execution, project and user only: persist: "path" left the text.
        if (this.edition !== 'v0')
          throw new ProseError('E_UNSUPPORTED', `custom-scope agents are not in the ${this.edition} edition`, {
            location: { field: 'scope' },
            hint: 'the current filesystem.md "Memory Scoping" has persist: true, project or user',
          });
        return join(this.projectDir, loc.path!, loc.agent);
    }
  }

  /** `<openprose-root>/state/world-model/{node}` in the current edition; undefined in v0 (versions per run). */
  durableNodeDir(node: string): string | undefined {
    const dir = editionLayout(this.edition).durableWorldModelDir;
    return dir === undefined ? undefined : join(this.projectDir, ...dir.split('/'), node);
  }

  /** `{name}.md` at root, `{name}__{execution_id}.md` in a frame. */
  static bindingFile(name: string, executionId: number | null): string {
    return executionId === null ? `${name}.md` : `${name}__${executionId}.md`;
  }
}
