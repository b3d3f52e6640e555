/**
 * The corrected DDL of the seed-era core tables (docs/postgres.md "Schema"). Differences from postgres.md, each a
 * row in conformance/decisions/postgres.yaml:
 * - the expression PRIMARY KEYs are syntax errors: they are unique expression indexes here (`pg-ddl-keys`);
 * - agents and agent_segments key on scope (and custom path) too, so project and user agents of one name
 *   never collide (`pg-agent-scope-key`);
 * - execution is an append-only log, one row per event, with the event as JSONB (`pg-execution-events`);
 * - statement_index and execution_id are BIGINT: an index is any safe integer, past INTEGER's 2^31 (`pg-execution-events`);
 * - no CREATE INDEX CONCURRENTLY, which cannot run in the one transaction that creates the schema;
 * - a version marker, openprose.x_prose_meta, so a schema of another version is recognised (`pg-schema-version`).
 */
export const SCHEMA = 'openprose';
export const SCHEMA_VERSION = '1';

/** The tables this version creates, in creation order (used to recognise a foreign `openprose` schema). */
export const CORE_TABLES = ['run', 'execution', 'bindings', 'agents', 'agent_segments', 'imports'] as const;

const SCOPES = `('execution', 'project', 'user', 'custom')`;

export const DDL: readonly string[] = [
  `CREATE SCHEMA IF NOT EXISTS openprose`,
  `CREATE TABLE openprose.run (
    id TEXT PRIMARY KEY,
    program_path TEXT,
    program_source TEXT,
    started_at TIMESTAMPTZ DEFAULT now(),
    updated_at TIMESTAMPTZ DEFAULT now(),
    status TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'completed', 'failed', 'interrupted')),
    state_mode TEXT DEFAULT 'postgres',
    metadata JSONB
  )`,
  `CREATE TABLE openprose.execution (
    id SERIAL PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES openprose.run(id) ON DELETE CASCADE,
    event_type TEXT NOT NULL,
    statement_index BIGINT,
    statement_text TEXT,
    status TEXT CHECK (status IS NULL OR status IN ('pending', 'executing', 'completed', 'failed', 'skipped')),
    execution_id BIGINT,
    parent_id INTEGER REFERENCES openprose.execution(id),
    started_at TIMESTAMPTZ DEFAULT now(),
    completed_at TIMESTAMPTZ,
    error_message TEXT,
    metadata JSONB NOT NULL
  )`,
  `CREATE INDEX idx_execution_run ON openprose.execution (run_id, id)`,
  `CREATE TABLE openprose.bindings (
    name TEXT NOT NULL,
    run_id TEXT NOT NULL REFERENCES openprose.run(id) ON DELETE CASCADE,
    execution_id BIGINT,
    kind TEXT NOT NULL CHECK (kind IN ('input', 'output', 'let', 'const')),
    value TEXT,
    source_statement TEXT,
    created_at TIMESTAMPTZ DEFAULT now(),
    updated_at TIMESTAMPTZ DEFAULT now(),
    attachment_path TEXT,
    metadata JSONB
  )`,
  `CREATE UNIQUE INDEX bindings_key ON openprose.bindings (name, run_id, COALESCE(execution_id, -1))`,
  `CREATE TABLE openprose.agents (
    name TEXT NOT NULL,
    scope TEXT NOT NULL CHECK (scope IN ${SCOPES}),
    run_id TEXT REFERENCES openprose.run(id) ON DELETE CASCADE,
    path TEXT,
    memory TEXT,
    created_at TIMESTAMPTZ DEFAULT now(),
    updated_at TIMESTAMPTZ DEFAULT now(),
    metadata JSONB
  )`,
  `CREATE UNIQUE INDEX agents_key ON openprose.agents (name, scope, COALESCE(run_id, ''), COALESCE(path, ''))`,
  `CREATE TABLE openprose.agent_segments (
    id SERIAL PRIMARY KEY,
    agent_name TEXT NOT NULL,
    scope TEXT NOT NULL CHECK (scope IN ${SCOPES}),
    run_id TEXT REFERENCES openprose.run(id) ON DELETE CASCADE,
    path TEXT,
    segment_number INTEGER NOT NULL,
    "timestamp" TEXT NOT NULL,
    prompt TEXT,
    summary TEXT,
    created_at TIMESTAMPTZ DEFAULT now()
  )`,
  `CREATE UNIQUE INDEX agent_segments_key ON openprose.agent_segments (agent_name, scope, COALESCE(run_id, ''), COALESCE(path, ''), segment_number)`,
  `CREATE TABLE openprose.imports (
    alias TEXT NOT NULL,
    run_id TEXT NOT NULL REFERENCES openprose.run(id) ON DELETE CASCADE,
    import_run_id TEXT NOT NULL REFERENCES openprose.run(id) ON DELETE CASCADE,
    source_url TEXT,
    fetched_at TIMESTAMPTZ DEFAULT now(),
    inputs_schema JSONB,
    outputs_schema JSONB,
    metadata JSONB,
    PRIMARY KEY (alias, run_id)
  )`,
  // Created last, in the same transaction: its presence means the whole schema is there.
  `CREATE TABLE openprose.x_prose_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  `INSERT INTO openprose.x_prose_meta (key, value) VALUES ('schema_version', '${SCHEMA_VERSION}'), ('created_by', 'prose-state')`,
];
