import { join } from 'node:path';
import { ProseError } from '../../core/errors.ts';
import type { AgentLocation, RunRef } from '../../core/model.ts';
import { checkName } from '../../core/names.ts';
import { isRunId } from '../../core/run-id.ts';

/** Where the seed layout puts things, for one project and one home directory. */
export class RunPaths {
  constructor(readonly projectDir: string, readonly homeDir: string) {}

  get proseDir(): string {
    return join(this.projectDir, '.prose');
  }

  /**
   * The directory of a run reference: `{id}` or `{id}/imports/{handle}--{slug}/...`. Every part is checked, so a
   * reference from outside can never point out of `.prose/runs/`.
   */
  runDir(run: RunRef): string {
    const parts = typeof run === 'string' ? run.split('/') : [];
    const bad = () => new ProseError('E_NOT_FOUND', `no run ${JSON.stringify(run)}`, { location: { field: 'run' }, hint: 'a run is {YYYYMMDD}-{HHMMSS}-{random6}, or a reference createImport returned' });
    if (!isRunId(parts[0])) throw bad();
    for (let i = 1; i < parts.length; i += 2) {
      if (parts[i] !== 'imports' || parts[i + 1] === undefined) throw bad();
      // The handle may not hold "--" (names.ts), so the first "--" separates it from the slug.
      const sep = parts[i + 1]!.indexOf('--');
      if (sep === -1) throw bad();
      const handle = parts[i + 1]!.slice(0, sep);
      const slug = parts[i + 1]!.slice(sep + 2);
      // A reference is only ever found, never named by the caller: a bad part means no such run.
      try {
        checkName('handle', handle, 'run');
        checkName('slug', slug, 'run');
      } catch {
        throw bad();
      }
    }
    return join(this.proseDir, 'runs', ...parts);
  }

  agentDir(loc: AgentLocation): string {
    switch (loc.scope) {
      case 'execution': return join(this.runDir(loc.run!), 'agents', loc.agent);
      case 'project': return join(this.proseDir, 'agents', loc.agent);
      case 'user': return join(this.homeDir, '.prose', 'agents', loc.agent);
      case 'custom': return join(this.projectDir, loc.path!, loc.agent);
    }
  }

  /** `{name}.md` at root, `{name}__{execution_id}.md` in a frame. */
  static bindingFile(name: string, executionId: number | null): string {
    return executionId === null ? `${name}.md` : `${name}__${executionId}.md`;
  }
}
