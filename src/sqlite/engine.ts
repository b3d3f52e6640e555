import { ProseError } from '../core/errors.ts';
import { nativeSqlite } from './native-lock.ts';

/**
 * How our processes keep each other and a real `sqlite3` off the pages they work on.
 * - `native`: everything in node:sqlite (SQLite in C, its unix VFS and POSIX locks), as the `sqlite3` CLI does it
 *   (native-file.ts). No lock file.
 * - `posix`: SQLite's own POSIX locks, taken through node:sqlite (native-lock.ts), plus our lock file (so a `wasm`
 *   process of ours is kept out too). A `sqlite3` process and ours wait for each other.
 * - `wasm`: our lock file alone, with a real `sqlite3`'s locks read from /proc/locks (Node cannot take POSIX locks);
 *   `sqlite3` does not see ours. The engine where node:sqlite is missing (Node 20).
 */
export type SqliteEngine = 'native' | 'posix' | 'wasm';
export const SQLITE_ENGINES: readonly SqliteEngine[] = ['native', 'posix', 'wasm'];

/** Names the engine of every SqliteFile opened without one in this process (plain `sqlite`, verify, the sqlite3 shim). */
export const ENGINE_ENV = 'PROSE_STATE_SQLITE_ENGINE';
/** The busy timeout, in ms, when the caller gives none. */
export const BUSY_TIMEOUT_ENV = 'PROSE_STATE_BUSY_TIMEOUT_MS';
/** What our subagent instructions tell the CLI (`-cmd ".timeout 10000"`): ours wait as long for a native lock. */
export const BUSY_TIMEOUT_MS = 10_000;

/**
 * `native` where node:sqlite exists, else `wasm` (sqlite-engine in the decisions table says why);
 * PROSE_STATE_SQLITE_ENGINE picks one (native or posix where node:sqlite is missing is an error).
 */
export function defaultEngine(env: Record<string, string | undefined> = process.env): SqliteEngine {
  const named = env[ENGINE_ENV];
  if (named === undefined || named === '') return nativeSqlite() ? 'native' : 'wasm';
  return checkEngine(named, `${ENGINE_ENV}`);
}

export function checkEngine(name: string, where: string): SqliteEngine {
  if (!(SQLITE_ENGINES as readonly string[]).includes(name)) {
    throw new ProseError('E_USAGE', `${where}: unknown SQLite engine "${name}"`, {
      hint: `one of: ${SQLITE_ENGINES.join(', ')}`,
    });
  }
  if (name !== 'wasm' && !nativeSqlite()) {
    throw new ProseError(
      'E_UNSUPPORTED',
      `${where}: the ${name} engine needs node:sqlite (Node 22.13+); this is Node ${process.versions.node}`,
      {
        hint: 'run with Node 24 (npm scripts and the single binary do), or pick the wasm engine',
      },
    );
  }
  return name as SqliteEngine;
}

/** The engines this Node can run: all three where node:sqlite exists, else wasm. */
export function enginesAvailable(): SqliteEngine[] {
  return nativeSqlite() ? [...SQLITE_ENGINES] : ['wasm'];
}

/** The engine that runs SQL on WASM SQLite (the sqlite3 shim's, for the CLI's exact errors): posix in place of native. */
export function wasmSqlEngine(env: Record<string, string | undefined> = process.env): SqliteEngine {
  const engine = defaultEngine(env);
  return engine === 'native' ? 'posix' : engine;
}

/** The busy timeout from PROSE_STATE_BUSY_TIMEOUT_MS, else BUSY_TIMEOUT_MS. */
export function defaultBusyTimeout(env: Record<string, string | undefined> = process.env): number {
  const raw = env[BUSY_TIMEOUT_ENV];
  if (raw === undefined || raw === '') return BUSY_TIMEOUT_MS;
  const ms = Number(raw);
  if (!Number.isSafeInteger(ms) || ms < 0)
    throw new ProseError('E_USAGE', `${BUSY_TIMEOUT_ENV} must be a whole number of milliseconds, not "${raw}"`);
  return ms;
}
