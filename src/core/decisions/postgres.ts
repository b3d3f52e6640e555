import type { DecisionRow } from './decision-row.ts';

/** Choices of the PostgreSQL backend: each spec defect we met and how the backend fixes or pins it. */
export const POSTGRES_DECISIONS: DecisionRow[] = [
  {
    id: 'pg-ddl-keys',
    area: 'postgres',
    spec: "postgres.md: bindings PRIMARY KEY (name, run_id, COALESCE(execution_id,-1)); agents PRIMARY KEY (name, COALESCE(run_id,'__project__')); agent_segments UNIQUE (..., COALESCE(run_id,'__project__'), ...). Expressions are not allowed in PRIMARY KEY/UNIQUE constraints: all three are syntax errors on PostgreSQL 15, so those tables are never created (same in the January version).",
    choice:
      'Plain columns plus unique expression indexes: bindings_key (name, run_id, COALESCE(execution_id,-1)), agents_key and agent_segments_key (see pg-agent-scope-key). The documented upsert ON CONFLICT (name, run_id, COALESCE(execution_id,-1)) works against bindings_key.',
    why: 'Keeps the key the spec meant and makes its own upsert work, on PostgreSQL and on pg-mem.',
  },
  {
    id: 'pg-large-outputs-upsert',
    area: 'postgres',
    spec: 'postgres.md "Large Outputs" upserts with ON CONFLICT (name, run_id), which fails: "there is no unique or exclusion constraint matching the ON CONFLICT specification".',
    choice:
      'Every binding write, attached or not, upserts on the full key ON CONFLICT (name, run_id, COALESCE(execution_id,-1)).',
    why: 'There is one binding key; a scoped binding must not replace the root one of the same name.',
  },
  {
    id: 'pg-agent-scope-key',
    area: 'postgres',
    spec: "postgres.md keys agents on COALESCE(run_id,'__project__'), so a project-scope and a user-scope agent of one name collide (one row); it suggests a __user__ name prefix or OPENPROSE_POSTGRES_USER_URL for user scope.",
    choice:
      "agents and agent_segments carry scope, run_id (execution scope) and path (custom scope), keyed by unique indexes on (name, scope, COALESCE(run_id,''), COALESCE(path,'')) and (agent_name, scope, COALESCE(run_id,''), COALESCE(path,''), segment_number). No name prefix.",
    why: "Scope is part of an agent's identity in every backend; a prefix would change the name programs and cases see.",
  },
  {
    id: 'pg-execution-events',
    area: 'postgres',
    spec: 'postgres.md: execution rows are UPDATEd; status CHECK in pending/executing/completed/failed/skipped rejects the append-only tokens of sqlite.md (started, iteration, joined, ...); statement_index NOT NULL; loop metadata keys max_iterations/current_iteration (sqlite.md: max/iteration).',
    choice:
      "execution is append-only: one row per event (event_type column), never updated; the whole event is stored in metadata (JSONB, the event model's keys: max, iteration, attempt, ...) and the log is rebuilt from it. statement_index, statement_text, status (kept to the spec's CHECK vocabulary, NULL for events without one), execution_id, parent_id (the row of the parent frame) and error_message are filled where the event has them. statement_index and execution_id are BIGINT, not INTEGER as in postgres.md: an index is any safe integer (check-args), and 2^31 must store.",
    why: 'One event model for every backend (core execution-events); the spec columns stay readable for people who query them.',
  },
  {
    id: 'pg-index-concurrently',
    area: 'postgres',
    spec: 'postgres.md suggests CREATE INDEX CONCURRENTLY IF NOT EXISTS, which cannot run inside a transaction block; its GIN index on execution.metadata (jsonb_path_ops) is optional.',
    choice:
      'The schema, its indexes and the version marker are created in ONE transaction without CONCURRENTLY; no GIN index (pg-mem cannot build it and no query of ours needs it).',
    why: 'An all-or-nothing setup leaves nothing half-created when it fails.',
  },
  {
    id: 'pg-schema-version',
    area: 'postgres',
    spec: 'postgres.md: CREATE SCHEMA IF NOT EXISTS openprose and CREATE TABLE IF NOT EXISTS, with no version, so a schema from another version is silently reused.',
    choice:
      'A marker table openprose.x_prose_meta (key, value) holds schema_version = 1, created last in the setup transaction. On open: no schema (or an empty one) is created; version 1 is used; another version, or openprose tables without the marker, is refused with E_CORRUPT saying to use a fresh database or drop the schema. Never migrated or overwritten.',
    why: "Writing into tables of unknown shape would corrupt someone else's state; the x_ prefix is the spec's extension convention.",
  },
  {
    id: 'pg-url-precedence',
    area: 'postgres',
    spec: 'postgres.md (HEAD): OPENPROSE_POSTGRES_URL in <root>/.env, then OPENPROSE_POSTGRES_URL in the shell, then DATABASE_URL. The seed era kept .env under .prose/.',
    choice:
      'resolvePostgresUrl(projectDir, env): OPENPROSE_POSTGRES_URL from {projectDir}/.prose/.env, then from the shell, then DATABASE_URL from the shell; empty values count as unset. The answer names its source, never the value.',
    why: "The spec's order, at the seed's location; DATABASE_URL is a documented fallback, so it is used rather than refused.",
  },
  {
    id: 'pg-url-secret',
    area: 'postgres',
    spec: 'postgres.md (HEAD): the URL is an opaque host capability that must never be read, printed, logged or serialized (the January version passed it to subagents).',
    choice:
      "The URL appears in no backend name, description, setting, error, hint or report; every pg error goes through redact(text, url), which removes the URL, the password (raw and percent-decoded) and any user:password@ of a postgres URL; pg's error objects are not kept as causes.",
    why: "pg's own messages can echo connection settings; removing by value catches them all.",
  },
  {
    id: 'pg-isolation',
    area: 'postgres',
    spec: 'design: every case gets fresh storage; postgres.md: everything lives in schema openprose.',
    choice:
      'On a real server each case gets its own database prose_case_{sha256(storageKey)[0..24]}, created on first open, kept across restarts, dropped WITH (FORCE) by dispose; schema openprose lives inside it. On pg-mem, one in-memory database per storageKey, forgotten by dispose. Measured on a local PostgreSQL 15 (fsync off): open of a fresh case ~0.4-0.6 s (CREATE DATABASE dominates), dispose ~0.1 s; a per-case schema would cost ~5 ms but could not be named openprose.',
    why: 'The schema must be named openprose, so isolation has to be one level up.',
  },
  {
    id: 'pg-atomic-writes',
    area: 'postgres',
    spec: 'postgres.md: use transactions for related writes. pg-mem ignores BEGIN/ROLLBACK sent as separate queries.',
    choice:
      'A write of several statements is ONE simple-protocol string with literals inlined (standard string literals, quotes doubled; standard_conforming_strings forced on for every server connection and checked), without BEGIN/COMMIT: a real server runs it as one implicit transaction and pg-mem rolls it back on failure. Single statements use bound parameters.',
    why: 'The same code is atomic on both engines, and inlined values stay data, never SQL.',
  },
  {
    id: 'pg-nul',
    area: 'postgres',
    spec: 'Silent. PostgreSQL text cannot hold U+0000 (22021); pg-mem stores it.',
    choice:
      'A value, source, program, memory, prompt, summary or timestamp holding U+0000 is refused with E_INVALID_ARGUMENT on both engines, before anything is written.',
    why: 'One meaning on both engines, and a clear answer instead of a server error.',
  },
  {
    id: 'pg-attachments',
    area: 'postgres',
    spec: 'postgres.md: large outputs go to attachments/ under runs/{id}/ on local disk, which contradicts its network/team sharing selling point.',
    choice:
      'As written: the value goes to {projectDir}/.prose/runs/{run}/attachments/{name}[__{execution_id}].md (written atomically before the row), attachment_path holds the path relative to the run directory and value is NULL.',
    why: 'The spec is explicit; the defect is recorded rather than silently redesigned.',
  },
  {
    id: 'pg-columns',
    area: 'postgres',
    spec: 'Seed-era tables use bindings.kind and imports(source_url, fetched_at, inputs_schema, outputs_schema); HEAD renamed them to binding and source_ref/resolved_at/requires_schema/ensures_schema.',
    choice:
      "Seed-era names, keyed by run_id: run, execution, bindings(kind), agents, agent_segments, imports(alias = {handle}--{slug}, run_id, import_run_id, source_url, ...). An import's nested run is a run row with id {run}/imports/{handle}--{slug}; importing the same handle and slug twice in a run answers E_CONFLICT.",
    why: 'The suite targets the seed; HEAD names would mix two versions in one schema.',
  },
  {
    id: 'pg-segment-timestamp',
    area: 'postgres',
    spec: 'Segment timestamp format unstated; the table suggests TIMESTAMPTZ DEFAULT now().',
    choice:
      'agent_segments."timestamp" is TEXT holding exactly what the agent wrote (ISO 8601 UTC when it wrote none); created_at TIMESTAMPTZ records when the row was made.',
    why: 'Read back byte for byte, as the filesystem backend does.',
  },
  {
    id: 'pg-recursive-resolution',
    area: 'postgres',
    spec: 'The spec resolves scoped bindings with a WITH RECURSIVE query over execution.parent_id; pg-mem cannot run WITH RECURSIVE.',
    choice:
      'The backend resolves with the spec\'s "simpler version if you know the scope chain": one query over the chain the shared semantics computed, innermost match wins. The recursive query (adapted to our columns) ships as SCOPE_CHAIN_SQL and a spec checks it agrees on a real server; on pg-mem that check is reported skipped with the engine\'s reason.',
    why: "One meaning on both engines, and the spec's query still proven on real PostgreSQL.",
  },
];
