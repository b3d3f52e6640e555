import { executeScript, queryRows, queryValue, type Database } from './rows.ts';
import { ProseError } from '../core/errors.ts';

/**
 * Our mark on a database: `PRAGMA user_version`. 0 is a file nobody marked (a seed-style file the sqlite3 CLI made,
 * or an empty one): we adopt it by creating what is missing. A higher number is a newer toolkit's schema: refused.
 */
export const SCHEMA_VERSION = 1;

/** The seed's core schema (sqlite.md "Core Schema"), with the one statement that cannot run corrected. */
export const RUN_DDL = `
CREATE TABLE IF NOT EXISTS run (
    id TEXT PRIMARY KEY,
    program_path TEXT,
    program_source TEXT,
    started_at TEXT DEFAULT (datetime('now')),
    updated_at TEXT DEFAULT (datetime('now')),
    status TEXT DEFAULT 'running',
    state_mode TEXT DEFAULT 'sqlite'
);
CREATE TABLE IF NOT EXISTS execution (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    statement_index INTEGER,
    statement_text TEXT,
    status TEXT,
    started_at TEXT,
    completed_at TEXT,
    error_message TEXT,
    parent_id INTEGER REFERENCES execution(id),
    metadata TEXT
);
-- The seed's PRIMARY KEY (name, IFNULL(execution_id, -1)) is refused by SQLite ("expressions prohibited in
-- PRIMARY KEY and UNIQUE constraints"): a unique expression index gives the same key, and INSERT OR REPLACE works.
CREATE TABLE IF NOT EXISTS bindings (
    name TEXT,
    execution_id INTEGER,
    kind TEXT,
    value TEXT,
    source_statement TEXT,
    created_at TEXT DEFAULT (datetime('now')),
    updated_at TEXT DEFAULT (datetime('now')),
    attachment_path TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS bindings_name_scope ON bindings(name, IFNULL(execution_id, -1));
CREATE TABLE IF NOT EXISTS imports (
    alias TEXT PRIMARY KEY,
    source_url TEXT,
    fetched_at TEXT,
    inputs_schema TEXT,
    outputs_schema TEXT
);
`;

/** Agent memory, in every state.db (execution scope) and in each agents.db (project, user, custom scope). */
export const AGENTS_DDL = `
CREATE TABLE IF NOT EXISTS agents (
    name TEXT PRIMARY KEY,
    scope TEXT,
    memory TEXT,
    created_at TEXT DEFAULT (datetime('now')),
    updated_at TEXT DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS agent_segments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    agent_name TEXT REFERENCES agents(name),
    segment_number INTEGER,
    timestamp TEXT DEFAULT (datetime('now')),
    prompt TEXT,
    summary TEXT,
    UNIQUE(agent_name, segment_number)
);
`;

/** Columns we read and write; a table of the same name without them is not ours to adopt. */
const REQUIRED: Record<string, string[]> = {
  run: ['id', 'program_path', 'program_source', 'started_at', 'updated_at', 'status'],
  execution: [
    'id',
    'statement_index',
    'statement_text',
    'status',
    'started_at',
    'completed_at',
    'error_message',
    'parent_id',
    'metadata',
  ],
  bindings: [
    'name',
    'execution_id',
    'kind',
    'value',
    'source_statement',
    'created_at',
    'updated_at',
    'attachment_path',
  ],
  imports: ['alias', 'source_url', 'fetched_at'],
  agents: ['name', 'scope', 'memory', 'created_at', 'updated_at'],
  agent_segments: ['id', 'agent_name', 'segment_number', 'timestamp', 'prompt', 'summary'],
};

export type DbKind = 'run' | 'agents';

/** Refuses a database of a newer schema version before anything reads or writes it. */
export function checkVersion(db: Database, file: string): void {
  const v = Number(queryValue(db, 'PRAGMA user_version'));
  if (v > SCHEMA_VERSION) {
    throw new ProseError(
      'E_FORMAT',
      `${file} has schema version ${v} (PRAGMA user_version); this toolkit reads up to ${SCHEMA_VERSION}`,
      {
        location: { file, field: 'PRAGMA user_version' },
        hint: 'use the newer prose-state that wrote it; the file was left untouched',
      },
    );
  }
}

export function needsSchema(db: Database): boolean {
  return Number(queryValue(db, 'PRAGMA user_version')) < SCHEMA_VERSION;
}

/** Creates what is missing (inside the caller's transaction) and marks the file; refuses tables of another shape. */
export function ensureSchema(db: Database, kind: DbKind, file: string): void {
  executeScript(db, kind === 'run' ? RUN_DDL + AGENTS_DDL : AGENTS_DDL);
  for (const [table, cols] of Object.entries(REQUIRED)) {
    if (kind === 'agents' && table !== 'agents' && table !== 'agent_segments') continue;
    const have = new Set(queryRows(db, 'SELECT name FROM pragma_table_info(?)', [table]).map((r) => String(r.name)));
    const missing = cols.filter((c) => !have.has(c));
    if (missing.length) {
      throw new ProseError('E_FORMAT', `${file}: table ${table} has no column ${missing.join(', ')}`, {
        location: { file, field: table },
        hint: 'the table was made by something else; the file was left untouched',
      });
    }
  }
  executeScript(db, `PRAGMA user_version = ${SCHEMA_VERSION}`);
}
