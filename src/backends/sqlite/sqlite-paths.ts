import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ProseError } from '../../core/errors.ts';
import type { AgentLocation, RunRef } from '../../core/model.ts';
import { checkName } from '../../core/names.ts';
import { isRunId } from '../../core/run-id.ts';

/** Where sqlite.md puts each database, for one project directory and one (injectable) home directory. */
export class SqlitePaths {
  constructor(readonly projectDir: string, readonly homeDir: string) {}

  get runsDir(): string {
    return join(this.projectDir, '.prose', 'runs');
  }

  /**
   * The directory of a run reference: `{id}` or `{id}/imports/{handle}--{slug}/...`. Every part is checked, so a
   * reference from outside can never point out of `.prose/runs/`.
   */
  runDir(run: RunRef): string {
    const parts = typeof run === 'string' ? run.split('/') : [];
    const bad = () => new ProseError('E_NOT_FOUND', `no run ${JSON.stringify(run)}`, {
      location: { field: 'run' }, hint: 'a run is {YYYYMMDD}-{HHMMSS}-{random6}, or a reference createImport returned',
    });
    if (!isRunId(parts[0])) throw bad();
    for (let i = 1; i < parts.length; i += 2) {
      if (parts[i] !== 'imports' || parts[i + 1] === undefined) throw bad();
      // A handle may not contain "--", so the first "--" splits; the slug may hold more (decision names).
      const seg = parts[i + 1]!;
      const cut = seg.indexOf('--');
      if (cut < 0) throw bad();
      const handle = seg.slice(0, cut);
      const slug = seg.slice(cut + 2);
      // A part that is not a valid name names no run: E_NOT_FOUND, as for any reference createImport never returned.
      try {
        checkName('handle', handle, 'run');
        checkName('slug', slug, 'run');
      } catch {
        throw bad();
      }
    }
    return join(this.runsDir, ...parts);
  }

  runDb(run: RunRef): string {
    return join(this.runDir(run), 'state.db');
  }

  /** The database holding an agent's memory: the run's state.db, or an agents.db per scope location. */
  agentDb(loc: AgentLocation): string {
    switch (loc.scope) {
      case 'execution': return this.runDb(loc.run!);
      case 'project': return join(this.projectDir, '.prose', 'agents.db');
      case 'user': return join(this.homeDir, '.prose', 'agents.db');
      case 'custom': return join(this.projectDir, loc.path!, 'agents.db');
    }
  }

  /** `attachments/{name}.md` at root, `attachments/{name}__{execution_id}.md` in a frame (relative to the run dir). */
  static attachmentPath(name: string, executionId: number | null): string {
    return `attachments/${executionId === null ? name : `${name}__${executionId}`}.md`;
  }

  /** An attachment_path read from a row, resolved inside the run directory or refused. */
  attachmentFile(runDir: string, stored: string, dbFile: string): string {
    const full = resolve(runDir, stored);
    const rel = relative(runDir, full);
    if (isAbsolute(stored) || rel.startsWith('..') || rel.split(sep)[0] !== 'attachments') {
      throw new ProseError('E_CORRUPT', `attachment_path ${JSON.stringify(stored)} is not under attachments/ of the run`, {
        location: { file: dbFile, field: 'bindings.attachment_path' },
      });
    }
    return full;
  }

  /** Paths in messages and locations: relative to the project, `~/` for the home directory. */
  display(path: string): string {
    const inHome = relative(this.homeDir, path);
    if (!inHome.startsWith('..') && !isAbsolute(inHome)) return `~/${inHome.split(sep).join('/')}`;
    return relative(this.projectDir, path).split(sep).join('/');
  }

  /** The inverse of `display`, for `storage().query(dbPath, ...)`. */
  fromDisplay(dbPath: string): string {
    if (dbPath.startsWith('~/')) return join(this.homeDir, dbPath.slice(2));
    return resolve(this.projectDir, dbPath);
  }
}
