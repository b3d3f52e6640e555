/** The execution table's columns, the same in both editions (what the store and verify read). */
export const EXECUTION_COLUMNS = [
  'id',
  'statement_index',
  'statement_text',
  'status',
  'started_at',
  'completed_at',
  'error_message',
  'parent_id',
  'metadata',
];

/** The execution table: the same text in both editions' Core Schema. */
export const EXECUTION_DDL = `CREATE TABLE IF NOT EXISTS execution (
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
`;

/**
 * The current sqlite.md's "Core Schema" (docs/editions.md, edition `current`): the v0 tables with renamed columns
 * (run.root_path/root_source, bindings.binding, imports.source_ref/resolved_at/requires_schema/ensures_schema) and the
 * canonical world-model and receipt tables, as the text writes them. One statement cannot run as written and is
 * corrected (decision sqlite-current-bindings-key); docs/sqlite.md shows both editions side by side.
 */
export const CURRENT_RUN_DDL = `
CREATE TABLE IF NOT EXISTS run (
    id TEXT PRIMARY KEY,
    root_path TEXT,
    root_source TEXT,
    started_at TEXT DEFAULT (datetime('now')),
    updated_at TEXT DEFAULT (datetime('now')),
    status TEXT DEFAULT 'running',
    state_mode TEXT DEFAULT 'sqlite'
);
${EXECUTION_DDL}CREATE TABLE IF NOT EXISTS world_model_version (
    version TEXT PRIMARY KEY,
    node TEXT,
    artifact BLOB,
    attachment_path TEXT,
    created_at TEXT DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS world_model_published (
    node TEXT PRIMARY KEY,
    version TEXT REFERENCES world_model_version(version),
    updated_at TEXT DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS receipt (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    node TEXT,
    contract_fingerprint TEXT,
    wake TEXT,
    input_fingerprints TEXT,
    fingerprints TEXT,
    semantic_diff TEXT,
    prev TEXT,
    status TEXT,
    cost TEXT,
    sig TEXT,
    created_at TEXT DEFAULT (datetime('now'))
);
-- Corrected (decision sqlite-current-bindings-key): the text's PRIMARY KEY (name, IFNULL(execution_id, -1)) is refused
-- by SQLite ("expressions prohibited in PRIMARY KEY and UNIQUE constraints"); a unique expression index is that key.
CREATE TABLE IF NOT EXISTS bindings (
    name TEXT,
    execution_id INTEGER,
    binding TEXT,
    value TEXT,
    source_statement TEXT,
    created_at TEXT DEFAULT (datetime('now')),
    updated_at TEXT DEFAULT (datetime('now')),
    attachment_path TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS bindings_name_scope ON bindings(name, IFNULL(execution_id, -1));
CREATE TABLE IF NOT EXISTS imports (
    alias TEXT PRIMARY KEY,
    source_ref TEXT,
    resolved_at TEXT,
    requires_schema TEXT,
    ensures_schema TEXT
);
`;

/** The current text's world-model tables, with the columns this toolkit reads and writes. */
export const CURRENT_WORLD_MODEL_REQUIRED: Record<string, string[]> = {
  world_model_version: ['version', 'node', 'artifact', 'attachment_path'],
  world_model_published: ['node', 'version'],
  receipt: [
    'id',
    'node',
    'contract_fingerprint',
    'wake',
    'input_fingerprints',
    'fingerprints',
    'semantic_diff',
    'prev',
    'status',
    'cost',
    'sig',
  ],
};
