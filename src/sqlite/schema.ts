import { executeScript, queryRows, queryValue, type Database } from './rows.ts';
import { renamedToCurrent, type Edition } from '../core/editions.ts';
import { ProseError } from '../core/errors.ts';
import { CURRENT_RUN_DDL, CURRENT_WORLD_MODEL_REQUIRED, EXECUTION_COLUMNS, EXECUTION_DDL } from './schema-current.ts';

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
${EXECUTION_DDL}-- The seed's PRIMARY KEY (name, IFNULL(execution_id, -1)) is refused by SQLite ("expressions prohibited in
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
const V0_REQUIRED: Record<string, string[]> = {
  run: ['id', 'program_path', 'program_source', 'started_at', 'updated_at', 'status'],
  execution: EXECUTION_COLUMNS,
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
};
/** The agents databases' columns (the same in both editions). */
export const AGENTS_REQUIRED: Record<string, string[]> = {
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

/** The tables a database of `kind` must have in `edition`, each with the columns we use. */
function requiredOf(kind: DbKind, edition: Edition): Record<string, string[]> {
  if (kind === 'agents') return AGENTS_REQUIRED;
  // The current text's run, bindings and imports are v0's under the renamed columns, plus its world-model tables.
  const run =
    edition === 'current' ? { ...renamedToCurrent(V0_REQUIRED), ...CURRENT_WORLD_MODEL_REQUIRED } : V0_REQUIRED;
  return { ...run, ...AGENTS_REQUIRED };
}

/** The DDL of a database of `kind` in `edition` (agents.db is alike in both). */
export function schemaDdl(kind: DbKind, edition: Edition): string {
  if (kind === 'agents') return AGENTS_DDL;
  return (edition === 'current' ? CURRENT_RUN_DDL : RUN_DDL) + AGENTS_DDL;
}

/**
 * Creates what is missing (inside the caller's transaction) and marks the file; refuses tables of another shape,
 * so a state.db of one edition is never adopted as the other's.
 */
export function ensureSchema(db: Database, kind: DbKind, file: string, edition: Edition = 'v0'): void {
  executeScript(db, schemaDdl(kind, edition));
  for (const [table, cols] of Object.entries(requiredOf(kind, edition))) {
    const have = new Set(queryRows(db, 'SELECT name FROM pragma_table_info(?)', [table]).map((r) => String(r.name)));
    const missing = cols.filter((c) => !have.has(c));
    if (missing.length) {
      throw new ProseError('E_FORMAT', `${file}: table ${table} has no column ${missing.join(', ')}`, {
        location: { file, field: table },
        hint:
          edition === 'v0'
            ? 'the table was made by something else; the file was left untouched'
            : `the table was made by something else, or by another edition than ${edition}; the file was left untouched`,
      });
    }
  }
  executeScript(db, `PRAGMA user_version = ${SCHEMA_VERSION}`);
}
