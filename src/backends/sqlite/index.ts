import type { BackendFactory } from '../../core/backend.ts';
import type { Capability } from '../../core/capabilities.ts';
import { worldModelHandlers } from '../../canon/world-model-ops.ts';
import { createEngine } from '../../core/engine.ts';
import { JOURNAL_MODE } from '../../sqlite/index.ts';
import { SqliteStore } from './sqlite-store.ts';

export const SQLITE_CAPABILITIES: readonly Capability[] = [
  'attachments', 'project-scope', 'user-scope', 'custom-scope', 'imports', 'durable', 'concurrent-writers', 'multi-process', 'layout:sqlite', 'subagent-writes',
  'world-model', 'receipts',
];

/** sqlite.md on WASM SQLite: real state.db files the sqlite3 CLI can open, each commit writing its pages in place. */
export const sqliteFactory: BackendFactory = {
  name: 'sqlite',
  kind: 'sqlite',
  capabilities: SQLITE_CAPABILITIES,
  description: 'sqlite.md: .prose/runs/{id}/state.db through WASM SQLite (pages in place over a node:fs VFS, rollback journal, cross-process lock file)',
  settings: {
    engine: '@sqlite.org/sqlite-wasm', persistence: 'pages-in-place', journalMode: JOURNAL_MODE, synchronous: 'full (fdatasync)',
    schemaVersion: 'PRAGMA user_version = 1',
  },
  async open(env) {
    const store = new SqliteStore(env.projectDir, env.homeDir, env.decisions);
    return createEngine({ store, extraHandlers: worldModelHandlers(store), decisions: env.decisions, capabilities: SQLITE_CAPABILITIES });
  },
};

export { SqliteStore } from './sqlite-store.ts';
export { SqliteFile, provideWasmBinary, loadSqlite } from '../../sqlite/index.ts';
