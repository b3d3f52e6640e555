import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ProseError } from '../../core/errors.ts';
import { editionLayout, type Edition } from '../../core/editions.ts';
import type { AgentLocation, RunRef } from '../../core/model.ts';
import { editionRunDir } from '../../core/seed-layout.ts';

/**
 * Where sqlite.md puts each database, for one project directory, one (injectable) home directory and one edition:
 * `.prose/runs/{id}/state.db` and `.prose/agents.db` (v0), `<openprose-root>/runs/{id}/state.db` and
 * `<openprose-root>/state/agents.db` (current sqlite.md "Database Location", "Project-Scoped and User-Scoped Agents").
 */
export class SqlitePaths {
  constructor(
    readonly projectDir: string,
    readonly homeDir: string,
    readonly edition: Edition = 'v0',
  ) {}

  /** The directory of a run reference, checked (core/seed-layout.ts). */
  runDir(run: RunRef): string {
    return editionRunDir(this.projectDir, run, this.edition);
  }

  runDb(run: RunRef): string {
    return join(this.runDir(run), 'state.db');
  }

  /** The database holding an agent's memory: the run's state.db, or an agents.db per scope location. */
  agentDb(loc: AgentLocation): string {
    const layout = editionLayout(this.edition);
    switch (loc.scope) {
      case 'execution':
        return this.runDb(loc.run!);
      case 'project':
        return join(this.projectDir, ...`${layout.projectAgentsDir}.db`.split('/'));
      case 'user':
        return join(this.homeDir, ...`${layout.userAgentsDir}.db`.split('/'));
      case 'custom':
        // The current sqlite.md names project and user databases only, as its filesystem.md dropped persist: "path".
        if (this.edition !== 'v0')
          throw new ProseError('E_UNSUPPORTED', `custom-scope agents are not in the ${this.edition} edition`, {
            location: { field: 'scope' },
            hint: 'the current sqlite.md has agents.db for project and user scope only',
          });
        return join(this.projectDir, loc.path!, 'agents.db');
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
      throw new ProseError(
        'E_CORRUPT',
        `attachment_path ${JSON.stringify(stored)} is not under attachments/ of the run`,
        {
          location: { file: dbFile, field: 'bindings.attachment_path' },
        },
      );
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
