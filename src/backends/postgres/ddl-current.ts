/**
 * The current edition's schema openprose: postgres.md "Core Schema" (upstream f12dcda4) with its column names
 * (run.root_path, bindings.binding, imports.source_ref, ...) and its canonical world-model tables as the text keys
 * them: one version store and one published pointer per node for the whole database, receipts chained per node
 * across runs. Each line that cannot run, or cannot hold what the text says, is corrected; every correction is a row
 * of conformance/decisions/postgres.yaml quoting the line (docs/postgres.md lists them):
 * - the three expression keys are unique expression indexes (`pg-ddl-keys`, `pg-agent-scope-key`);
 * - world_model_version is keyed (node, version), and the published pointer references that pair
 *   (`pg-current-version-key`);
 * - execution keeps one row per event, as in v0 (`pg-execution-events`, `pg-current-execution`);
 * - added columns the text invites ("Add columns to existing tables as needed"): execution.event_type and
 *   execution_id, imports.import_run_id, agent_segments.scope (default 'execution', the scope of the text's own
 *   segment INSERT) and created_at, receipt.content_hash, world_model_version.run_id (`pg-current-added-columns`);
 * - agent_segments."timestamp" is TEXT, read back as the agent wrote it; a row written without one (the text's own
 *   INSERT names none) reads as its created_at (`pg-segment-timestamp`, `pg-current-segment-timestamp`).
 * - the partial indexes lose their WHERE: pg-mem answers lookups from them as if they held every row
 *   (`pg-current-indexes`).
 * The indexes are otherwise the text's, plus two of ours.
 */
export const CURRENT_SCHEMA_VERSION = '1';

const SCOPES = `('execution', 'project', 'user', 'custom')`;

/** The current edition's tables, in creation order (used to recognise a foreign `openprose` schema). */
export const CURRENT_TABLES = [
  'run',
  'execution',
  'world_model_version',
  'world_model_published',
  'receipt',
  'bindings',
  'agents',
  'agent_segments',
  'imports',
] as const;

export const CURRENT_DDL: readonly string[] = [
  `CREATE SCHEMA IF NOT EXISTS openprose`,
  `CREATE TABLE openprose.run (
    id TEXT PRIMARY KEY,
    root_path TEXT,
    root_source TEXT,
    started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    status TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'completed', 'failed', 'interrupted')),
    state_mode TEXT NOT NULL DEFAULT 'postgres',
    metadata JSONB DEFAULT '{}'::jsonb
  )`,
  // statement_index and status may be NULL and event_type says what the row records (pg-current-execution).
  `CREATE TABLE openprose.execution (
    id SERIAL PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES openprose.run(id) ON DELETE CASCADE,
    event_type TEXT NOT NULL,
    statement_index BIGINT,
    statement_text TEXT,
    status TEXT CHECK (status IS NULL OR status IN ('pending', 'executing', 'completed', 'failed', 'skipped')),
    execution_id BIGINT,
    started_at TIMESTAMPTZ DEFAULT now(),
    completed_at TIMESTAMPTZ,
    error_message TEXT,
    parent_id INTEGER REFERENCES openprose.execution(id) ON DELETE CASCADE,
    metadata JSONB NOT NULL DEFAULT '{}'::jsonb
  )`,
  `CREATE TABLE openprose.world_model_version (
    version TEXT NOT NULL,
    node TEXT NOT NULL,
    artifact BYTEA,
    attachment_path TEXT,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    run_id TEXT,
    PRIMARY KEY (node, version)
  )`,
  `CREATE TABLE openprose.world_model_published (
    node TEXT PRIMARY KEY,
    version TEXT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    FOREIGN KEY (node, version) REFERENCES openprose.world_model_version(node, version)
  )`,
  `CREATE TABLE openprose.receipt (
    id SERIAL PRIMARY KEY,
    run_id TEXT REFERENCES openprose.run(id) ON DELETE CASCADE,
    node TEXT NOT NULL,
    contract_fingerprint TEXT NOT NULL,
    wake JSONB NOT NULL,
    input_fingerprints JSONB NOT NULL,
    fingerprints JSONB NOT NULL,
    semantic_diff JSONB DEFAULT '{}'::jsonb,
    prev TEXT,
    status TEXT NOT NULL CHECK (status IN ('rendered', 'skipped', 'failed')),
    cost JSONB DEFAULT '{}'::jsonb,
    sig JSONB NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    content_hash TEXT NOT NULL
  )`,
  `CREATE TABLE openprose.bindings (
    name TEXT NOT NULL,
    run_id TEXT NOT NULL REFERENCES openprose.run(id) ON DELETE CASCADE,
    execution_id BIGINT,
    binding TEXT NOT NULL CHECK (binding IN ('input', 'output', 'let', 'const')),
    value TEXT,
    source_statement TEXT,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    attachment_path TEXT,
    metadata JSONB DEFAULT '{}'::jsonb
  )`,
  `CREATE UNIQUE INDEX bindings_key ON openprose.bindings (name, run_id, COALESCE(execution_id, -1))`,
  `CREATE TABLE openprose.agents (
    name TEXT NOT NULL,
    run_id TEXT,
    scope TEXT NOT NULL CHECK (scope IN ${SCOPES}),
    memory TEXT,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    metadata JSONB DEFAULT '{}'::jsonb
  )`,
  `CREATE UNIQUE INDEX agents_key ON openprose.agents (name, scope, COALESCE(run_id, ''))`,
  `CREATE TABLE openprose.agent_segments (
    id SERIAL PRIMARY KEY,
    agent_name TEXT NOT NULL,
    run_id TEXT,
    scope TEXT NOT NULL DEFAULT 'execution' CHECK (scope IN ${SCOPES}),
    segment_number INTEGER NOT NULL,
    "timestamp" TEXT,
    prompt TEXT,
    summary TEXT,
    metadata JSONB DEFAULT '{}'::jsonb,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
  )`,
  `CREATE UNIQUE INDEX agent_segments_key ON openprose.agent_segments (agent_name, scope, COALESCE(run_id, ''), segment_number)`,
  `CREATE TABLE openprose.imports (
    alias TEXT NOT NULL,
    run_id TEXT NOT NULL REFERENCES openprose.run(id) ON DELETE CASCADE,
    source_ref TEXT NOT NULL,
    resolved_at TIMESTAMPTZ,
    requires_schema JSONB,
    ensures_schema JSONB,
    content_hash TEXT,
    metadata JSONB DEFAULT '{}'::jsonb,
    import_run_id TEXT REFERENCES openprose.run(id) ON DELETE CASCADE,
    PRIMARY KEY (alias, run_id)
  )`,
  // postgres.md's indexes as it writes them, but the four partial ones without their WHERE: pg-mem builds a partial
  // index and then answers every lookup on its columns from it, so rows outside the WHERE vanish (pg-current-indexes).
  `CREATE INDEX IF NOT EXISTS idx_execution_run_id ON openprose.execution(run_id)`,
  `CREATE INDEX IF NOT EXISTS idx_execution_status ON openprose.execution(status)`,
  `CREATE INDEX IF NOT EXISTS idx_execution_parent_id ON openprose.execution(parent_id)`,
  `CREATE INDEX IF NOT EXISTS idx_execution_metadata_gin ON openprose.execution USING GIN (metadata jsonb_path_ops)`,
  `CREATE INDEX IF NOT EXISTS idx_bindings_run_id ON openprose.bindings(run_id)`,
  `CREATE INDEX IF NOT EXISTS idx_bindings_execution_id ON openprose.bindings(execution_id)`,
  `CREATE INDEX IF NOT EXISTS idx_agents_run_id ON openprose.agents(run_id)`,
  `CREATE INDEX IF NOT EXISTS idx_agents_project_scoped ON openprose.agents(name)`,
  `CREATE INDEX IF NOT EXISTS idx_agent_segments_lookup ON openprose.agent_segments(agent_name, run_id)`,
  // Ours: the run's log is read in id order, a node's chain in id order.
  `CREATE INDEX idx_execution_run ON openprose.execution (run_id, id)`,
  `CREATE INDEX idx_receipt_node ON openprose.receipt (node, id)`,
  // Created last, in the same transaction: its presence means the whole schema is there, and which edition made it.
  `CREATE TABLE openprose.x_prose_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  `INSERT INTO openprose.x_prose_meta (key, value) VALUES ('schema_version', '${CURRENT_SCHEMA_VERSION}'), ` +
    `('created_by', 'prose-state'), ('edition', 'current')`,
];
