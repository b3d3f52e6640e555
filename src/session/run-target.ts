import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Row, SubagentStorageKind } from '../core/backend.ts';
import { DEFAULT_EDITION, type Edition } from '../core/editions.ts';
import { runsDirOf } from './edition-paths.ts';
import { SqliteFile, queryRows } from '../sqlite/index.ts';

/** The storage kind a run's instructions and checks are for (the core's name for it). */

/** A run being checked: its directory, the project above `.prose/`, and which storage kind's layout it holds. */
export interface RunTarget {
  runDir: string;
  projectDir: string;
  homeDir: string;
  /** `{id}` or `{id}/imports/{handle}--{slug}` */
  runRef: string;
  runId: string;
  storage: SubagentStorageKind | undefined;
  /** Whose paths and columns the run has: v0 (`.prose/runs/`, bindings.kind) when absent. */
  edition?: Edition;
}

/**
 * Finds the project of a run directory by walking up to `.prose/runs` (v0) or to the `runs/` of `<openprose-root>`
 * (current). A bare run id (postgres, where no directory may exist) is taken relative to `projectDir`.
 */
export function resolveRunTarget(
  runPath: string,
  opts: { projectDir?: string; homeDir?: string; storage?: SubagentStorageKind; edition?: Edition } = {},
): RunTarget {
  const homeDir = opts.homeDir ?? homedir();
  const edition = opts.edition ?? DEFAULT_EDITION;
  let runDir = resolve(opts.projectDir ?? '.', runPath);
  if (!existsSync(runDir) && !runPath.includes('/') && opts.projectDir !== undefined)
    runDir = join(runsDirOf({ projectDir: opts.projectDir, edition }), runPath);
  let dir = runDir;
  let projectDir = opts.projectDir ?? dirname(runDir);
  while (dirname(dir) !== dir) {
    if (basename(dir) === 'runs' && (basename(dirname(dir)) === '.prose') === (edition === DEFAULT_EDITION)) {
      projectDir = edition === DEFAULT_EDITION ? dirname(dirname(dir)) : dirname(dir);
      break;
    }
    dir = dirname(dir);
  }
  const runRef = relative(runsDirOf({ projectDir, edition }), runDir).split(sep).join('/');
  const storage =
    opts.storage ??
    (existsSync(join(runDir, 'state.db')) ? 'sqlite' : existsSync(join(runDir, 'state.md')) ? 'directory' : undefined);
  const target = { runDir, projectDir, homeDir, runRef, runId: runRef.split('/')[0]!, storage };
  return edition === DEFAULT_EDITION ? target : { ...target, edition };
}

/**
 * A path from a message: `~/` is the home directory, a relative path is relative to the project. In the current
 * edition a literal `<openprose-root>/` (the texts' own spelling of the project) is the project too.
 */
export function resolveMessagePath(t: RunTarget, path: string): string {
  if (path.startsWith('~/')) return join(t.homeDir, path.slice(2));
  if (t.edition === 'current' && path.startsWith(OPENPROSE_ROOT))
    return join(t.projectDir, path.slice(OPENPROSE_ROOT.length));
  return isAbsolute(path) ? resolve(path) : resolve(t.projectDir, path);
}

const OPENPROSE_ROOT = '<openprose-root>/';

/** Is `path` inside `dir` (or equal to it)? */
export function isInside(dir: string, path: string): boolean {
  const r = relative(dir, path);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

/** How the checker reads a database: SQLite files directly, PostgreSQL through a query function the caller gives. */
export type PgQuery = (sql: string, params?: unknown[]) => Promise<Row[]>;

export async function sqliteRows(path: string, sql: string, params: unknown[]): Promise<Row[]> {
  const file = await SqliteFile.open(path);
  try {
    return await file.read((db) => queryRows(db, sql, params));
  } finally {
    file.close();
  }
}
