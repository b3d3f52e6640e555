import type { BackendFactory } from '../../core/backend.ts';
import type { Capability } from '../../core/capabilities.ts';
import { commitReadingsOf } from '../../canon/commit-readings.ts';
import { worldModelHandlers } from '../../canon/world-model-ops.ts';
import { createBackend } from '../../core/semantics.ts';
import { checkEngine, defaultEngine, JOURNAL_MODE, loadSqlite, type SqliteEngine } from '../../sqlite/index.ts';
import { SqliteStore } from './sqlite-store.ts';

export const SQLITE_CAPABILITIES: readonly Capability[] = [
  'attachments',
  'project-scope',
  'user-scope',
  'custom-scope',
  'imports',
  'durable',
  'concurrent-writers',
  'multi-process',
  'layout:sqlite',
  'edition:v0',
  'edition:current',
  'subagent-writes',
  'world-model',
  'receipts',
];

const ENGINES: Record<SqliteEngine, { sql: string; locks: string; about: string }> = {
  native: {
    sql: 'node:sqlite',
    locks: 'posix (node:sqlite)',
    about: "node:sqlite (SQLite's own pager, journal and POSIX locks, waited for up to the busy timeout)",
  },
  posix: {
    sql: '@sqlite.org/sqlite-wasm',
    locks: 'posix (node:sqlite) + lock file',
    about:
      'WASM SQLite (pages in place over a node:fs VFS, rollback journal) under ' +
      "SQLite's own POSIX locks through node:sqlite, waited for up to the busy timeout, plus our lock file",
  },
  wasm: {
    sql: '@sqlite.org/sqlite-wasm',
    locks: 'lock file (+ /proc/locks)',
    about:
      "WASM SQLite (pages in place over a node:fs VFS, rollback journal) under our lock file, a native sqlite3's locks read from /proc/locks",
  },
};

/**
 * sqlite.md: real state.db files the sqlite3 CLI can open, each commit writing its pages in place behind a rollback
 * journal. `engine` says what runs the SQL and keeps other processes off those pages (src/sqlite/engine.ts;
 * sqlite-engine in the decisions table).
 */
export function sqliteFactoryFor(engine: SqliteEngine, name = `sqlite:${engine}`): BackendFactory {
  const e = ENGINES[engine];
  // Only SQLite's own locks keep a real sqlite3 off our pages: the wasm engine's damage beside it is in docs/sqlite.md.
  const capabilities: readonly Capability[] =
    engine === 'wasm' ? SQLITE_CAPABILITIES : [...SQLITE_CAPABILITIES, 'native-sqlite3-beside'];
  return {
    name,
    kind: 'sqlite',
    capabilities,
    description: `sqlite.md: .prose/runs/{id}/state.db (edition current: runs/{id}/state.db), engine ${engine}: ${e.about}`,
    settings: {
      engine,
      sql: e.sql,
      locks: e.locks,
      persistence: 'pages-in-place',
      journalMode: JOURNAL_MODE,
      synchronous: engine === 'native' ? 'full' : 'full (fdatasync)',
      schemaVersion: 'PRAGMA user_version = 1',
    },
    async prepare() {
      await loadSqlite();
    },
    async open(env) {
      checkEngine(engine, `--backend ${name}`); // posix where node:sqlite is missing: E_UNSUPPORTED, saying why
      const store = new SqliteStore(env.projectDir, env.homeDir, env.decisions, engine, env.edition ?? 'v0');
      return createBackend({
        store,
        extraHandlers: worldModelHandlers(store, commitReadingsOf(env.decisions)),
        decisions: env.decisions,
        capabilities,
      });
    },
  };
}

/** The engine this process picks by itself: native where node:sqlite exists, else wasm (PROSE_STATE_SQLITE_ENGINE overrides). */
const DEFAULT: SqliteEngine = defaultEngine();
export const sqliteFactory: BackendFactory = sqliteFactoryFor(DEFAULT, 'sqlite');

export { SqliteStore } from './sqlite-store.ts';
export { SqliteFile, provideWasmBinary, loadSqlite, enginesAvailable, type SqliteEngine } from '../../sqlite/index.ts';
