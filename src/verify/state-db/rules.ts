import { LEDGER_RULES } from '../kit/ledger-rules.ts';
import { prefixRules, type Rule, type RuleTable } from '../kit/rule-table.ts';
import { MAX_ROWS_CHECKED, QUERY_BUDGET_MS } from './query-budget.ts';
import { PROJECTION_RULES } from '../projections/rules.ts';

/**
 * The ledger rules a receipt row can break. Not here: receipt.object, receipt.keys, receipt.schema (a row is an object
 * with every envelope column, NULL read as null; schema and hash_algorithm are constants of the format, not columns),
 * receipt.unknown-key (only the envelope's columns are read) and chain.node (chains are grouped by the node column).
 */
const SQL_LEDGER_RULES = Object.fromEntries(
  Object.entries(LEDGER_RULES).filter(
    ([id]) => !['receipt.object', 'receipt.keys', 'receipt.schema', 'receipt.unknown-key', 'chain.node'].includes(id),
  ),
) as Omit<
  typeof LEDGER_RULES,
  'receipt.object' | 'receipt.keys' | 'receipt.schema' | 'receipt.unknown-key' | 'chain.node'
>;

function withHint<R extends string>(rules: RuleTable<R>, hint: string): RuleTable<R> {
  return Object.fromEntries(Object.entries<Rule>(rules).map(([id, r]) => [id, { ...r, hint }])) as RuleTable<R>;
}

/** Every rule the state-db verifier reports (sqlite.md "Core Schema" and its conventions). docs/verify-rules.md lists them. */
export const STATE_DB_RULES = {
  'db.open': {
    severity: 'error',
    enforces: 'sqlite.md "Database Location": state.db is a SQLite database (agents.db likewise).',
    hint: 'point at a database written by SQLite; check it with sqlite3 FILE "PRAGMA quick_check"',
  },
  'db.not-a-table': {
    severity: 'error',
    enforces:
      'sqlite.md "Core Schema": the core objects are tables (CREATE TABLE); a view runs its own query when read, ' +
      'so verify never reads one where a table belongs.',
    hint: "store the core data in a table of that name (CREATE TABLE with the seed's DDL)",
  },
  'db.budget': {
    severity: 'error',
    enforces:
      `verify reads a database in bounded time and memory: at most ${MAX_ROWS_CHECKED} rows of one query, and ` +
      `${QUERY_BUDGET_MS / 1000} s of SQLite work for the whole check; what lies past that is not checked.`,
    hint: 'check a database this large with SQLite itself, or split the run',
  },
  'db.table-missing': {
    severity: 'error',
    enforces:
      'sqlite.md "Core Schema": the VM initializes run, execution, bindings, agents, agent_segments, imports (agents.db: agents, agent_segments).',
    hint: "create the missing core table with the seed's DDL (CREATE TABLE IF NOT EXISTS ...)",
  },
  'db.column-missing': {
    severity: 'error',
    enforces: 'sqlite.md "Core Schema" columns ("a minimum viable schema - extend freely": added columns are allowed).',
    hint: 'ALTER TABLE ... ADD COLUMN the missing core column',
  },
  'db.table-unknown': {
    severity: 'warning',
    enforces: 'sqlite.md "Shared Concerns": custom tables are prefixed with x_ (e.g. x_metrics).',
    hint: 'rename extension tables to x_{name}',
  },
  'db.run-row': {
    severity: 'error',
    enforces: 'sqlite.md "VM Responsibilities": Program registration, "Store the program source and metadata" in run.',
    hint: 'the VM inserts the run row when it creates state.db',
  },
  'db.run-id': {
    severity: 'error',
    enforces:
      'sqlite.md: "Run ID format: Same as filesystem state: {YYYYMMDD}-{HHMMSS}-{random6}", the directory the state.db lives in.',
    hint: 'run.id must be the run directory name, e.g. 20260116-143052-a7b3c9',
  },
  'db.run-status': {
    severity: 'error',
    enforces: 'sqlite.md run.status: "running, completed, failed, interrupted".',
    hint: 'set run.status to running, completed, failed or interrupted',
  },
  'db.binding-duplicate': {
    severity: 'error',
    enforces: 'sqlite.md bindings: PRIMARY KEY (name, IFNULL(execution_id, -1)): one row per name and scope.',
    hint: 'keep one row per (name, execution_id); create the unique index ON bindings(name, IFNULL(execution_id, -1))',
  },
  'db.binding-kind': {
    severity: 'error',
    enforces: 'sqlite.md bindings.kind: "input, output, let, const".',
    hint: 'set kind to input, output, let or const',
  },
  'db.binding-name': {
    severity: 'error',
    enforces: 'decisions names: a binding name is a plain name (it also names attachments/{name}.md).',
    hint: 'rename the binding to a plain name',
  },
  'db.binding-execution-id': {
    severity: 'error',
    enforces:
      'sqlite.md bindings.execution_id: "NULL for root scope, non-null for block invocations" (decisions execution-id: a positive counter).',
    hint: "use NULL at root and the frame's positive execution_id in a block",
  },
  'db.binding-too-large': {
    severity: 'warning',
    enforces:
      'sqlite.md "Large Outputs": a value over ~100KB goes to attachments/{name}.md (decisions attachment-threshold: > 102,400 UTF-8 bytes).',
    hint: 'write the value to attachments/ and store its path in attachment_path',
  },
  'db.attachment': {
    severity: 'error',
    enforces:
      'sqlite.md "Large Outputs": attachment_path names attachments/{binding_name}.md (decisions attachment-naming: relative to the run directory).',
    hint: 'attachment_path must be a relative path under attachments/ of the run, and the file must exist',
  },
  'db.execution-parent': {
    severity: 'error',
    enforces: 'sqlite.md execution.parent_id: "INTEGER REFERENCES execution(id) -- for nested blocks".',
    hint: 'parent_id must be the id of an existing execution row',
  },
  'db.execution-status': {
    severity: 'warning',
    enforces:
      'sqlite.md execution.status: pending, executing, completed, failed, skipped (HEAD event tokens started, joined, iteration, exited, retry).',
    hint: 'use one of the status tokens docs/verify-rules.md lists',
  },
  'db.agent-name': {
    severity: 'error',
    enforces: 'decisions names: an agent name is a plain name.',
    hint: 'rename the agent to a plain name',
  },
  'db.agent-scope': {
    severity: 'error',
    enforces: 'sqlite.md agents.scope: "execution, project, user, custom".',
    hint: 'set scope to execution, project, user or custom',
  },
  'db.agent-scope-place': {
    severity: 'warning',
    enforces: 'sqlite.md: execution-scoped agents live in the per-run state.db; project and user agents in agents.db.',
    hint: 'move the agent to the database its scope names',
  },
  'db.segment-duplicate': {
    severity: 'error',
    enforces: 'sqlite.md agent_segments: UNIQUE(agent_name, segment_number).',
    hint: 'keep one row per (agent_name, segment_number)',
  },
  'db.segment-sequence': {
    severity: 'error',
    enforces:
      'filesystem.md segment numbering 001, 002, ... (decisions segment-numbering: per agent, from 1, no gaps).',
    hint: "number an agent's segments 1, 2, 3, ... without gaps",
  },
  'db.segment-agent': {
    severity: 'warning',
    enforces: 'sqlite.md agent_segments.agent_name: "REFERENCES agents(name)".',
    hint: 'insert the agents row before its segments',
  },
  'db.receipt-json': {
    severity: 'error',
    enforces:
      'sqlite.md receipt: wake, input_fingerprints, fingerprints, semantic_diff, cost and sig hold JSON (decision ' +
      'verify-db-ledger: a row that does not parse cannot be read back to its envelope, so its node is not checked).',
    hint: 'store the JSON text of the envelope field in the column',
  },
  ...withHint(
    prefixRules('wm.', SQL_LEDGER_RULES),
    'a receipt row is never updated: leave the ledger as written and append a new receipt chained to the last one',
  ),
  'wm.bin-hash': {
    severity: 'error',
    enforces: 'sqlite.md world_model_version: version is the ContentAddress (sha256) of the artifact bytes.',
    hint: 'a version row is never rewritten: store new bytes under their own address',
  },
  'wm.version-attachment': {
    severity: 'error',
    enforces:
      'sqlite.md world_model_version: attachment_path is "set when artifact is offloaded to attachments/": a ' +
      'relative path under attachments/ of the run naming a regular file, whose bytes hash to the version ' +
      '(wm.bin-hash); a path that leaves attachments/ is not followed (decision verify-db-offloaded-version).',
    hint: 'write the artifact to attachments/ of the run and store that relative path, or keep it in artifact',
  },
  'wm.published-match': {
    severity: 'error',
    enforces:
      "world_model_published names the @atomic of the node's last non-failed receipt (nothing when none rendered): " +
      'a failed render commits nothing. v0 edition; in the current edition the pointer is a projection ' +
      '(proj.world_model_published.stale).',
    hint: 'publish a version only with the rendered receipt that names it',
  },
  'wm.atomic-version': {
    severity: 'error',
    enforces:
      "A rendered receipt's @atomic names a world_model_version row of its node (decision wm-receipt-version-link).",
    hint: 'store the version before its rendered receipt',
  },
  ...PROJECTION_RULES,
} as const satisfies RuleTable;

export type StateDbRuleId = keyof typeof STATE_DB_RULES;
