import type { BackendFactory } from '../../core/backend.ts';
import type { Capability } from '../../core/capabilities.ts';
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
  'subagent-writes',
  'world-model',
  'receipts',
];

/**
 * sqlite.md on WASM SQLite: real state.db files the sqlite3 CLI can open, each commit writing its pages in place.
 * `engine` says how other processes are kept off those pages (src/sqlite/engine.ts; sqlite-engine in the decisions table).
 */
export function sqliteFactoryFor(engine: SqliteEngine, name = `sqlite:${engine}`): BackendFactory {
  const locks =
    engine === 'posix'
      ? "SQLite's own POSIX locks through node:sqlite, waited for up to the busy timeout, plus our lock file"
      : "our lock file, a native sqlite3's locks read from /proc/locks";
  // Only SQLite's own locks keep a real sqlite3 off our pages: the wasm engine's damage beside it is in docs/sqlite.md.
  const capabilities: readonly Capability[] =
    engine === 'posix' ? [...SQLITE_CAPABILITIES, 'native-sqlite3-beside'] : SQLITE_CAPABILITIES;
  return {
    name,
    kind: 'sqlite',
    capabilities,
    description: `sqlite.md: .prose/runs/{id}/state.db through WASM SQLite (pages in place over a node:fs VFS, rollback journal), engine ${engine}: ${locks}`,
    settings: {
      engine,
      sql: '@sqlite.org/sqlite-wasm',
      locks: engine === 'posix' ? 'posix (node:sqlite) + lock file' : 'lock file (+ /proc/locks)',
      persistence: 'pages-in-place',
      journalMode: JOURNAL_MODE,
      synchronous: 'full (fdatasync)',
      schemaVersion: 'PRAGMA user_version = 1',
    },
    async prepare() {
      await loadSqlite();
    },
    async open(env) {
      checkEngine(engine, `--backend ${name}`); // posix where node:sqlite is missing: E_UNSUPPORTED, saying why
      const store = new SqliteStore(env.projectDir, env.homeDir, env.decisions, engine);
      return createBackend({ store, extraHandlers: worldModelHandlers(store), decisions: env.decisions, capabilities });
    },
  };
}

/** The engine this process picks by itself: posix where node:sqlite exists, else wasm (PROSE_STATE_SQLITE_ENGINE overrides). */
const DEFAULT: SqliteEngine = defaultEngine();
export const sqliteFactory: BackendFactory = sqliteFactoryFor(DEFAULT, 'sqlite');

export { SqliteStore } from './sqlite-store.ts';
export { SqliteFile, provideWasmBinary, loadSqlite } from '../../sqlite/index.ts';
