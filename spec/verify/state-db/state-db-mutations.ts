import { writeFileSync } from 'node:fs';
import type { StateDbRuleId } from '../../../src/verify/state-db/rules.ts';
import { MAX_ROWS_CHECKED } from '../../../src/verify/state-db/query-budget.ts';
import { ADDRESS, plantLedger, type Edit } from './ledger-rows.ts';
import type { SeedDb } from './seed-db.ts';
import { TO_CURRENT_COLUMNS } from './current-text-db.ts';

export interface DbMutation {
  rule: StateDbRuleId;
  what: string;
  apply(s: SeedDb): Promise<void>;
  table?: string;
}

const sql = (text: string) => (s: SeedDb) => s.exec(text);
/** A ledger planted with one receipt body changed before stamping (plant indexes: ledger-rows.ts PLAN). */
const forged =
  (at: number, change: (b: Record<string, unknown>) => void, shape: 'ours' | 'current' = 'ours') =>
  (s: SeedDb) =>
    plantLedger(s, ((i, b) => (i === at ? change(b) : undefined)) as Edit, shape);
/** A ledger planted as written, then `text` run on it. */
const planted = (text: string) => async (s: SeedDb) => {
  await plantLedger(s);
  await s.exec(text);
};

/** One mutation of the seed database per rule: the broken corpus for state.db. */
export const STATE_DB_MUTATIONS: DbMutation[] = [
  {
    rule: 'db.open',
    what: 'a state.db that is not SQLite',
    apply: async (s) => writeFileSync(s.db, 'SQLite format 3\0 but then garbage'),
  },
  { rule: 'db.table-missing', what: 'no imports table', apply: sql('DROP TABLE imports'), table: 'imports' },
  {
    rule: 'db.not-a-table',
    what: 'imports as a view',
    apply: sql(
      "DROP TABLE imports; CREATE VIEW imports AS SELECT 'r' AS alias, 'u' AS source_url, NULL AS fetched_at, " +
        'NULL AS inputs_schema, NULL AS outputs_schema',
    ),
    table: 'imports',
  },
  {
    rule: 'db.budget',
    what: 'bindings of more rows than verify checks',
    apply: sql(
      `INSERT INTO bindings (name, kind, value) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n ` +
        `LIMIT ${MAX_ROWS_CHECKED + 1}) SELECT 'b' || i, 'let', 'v' FROM n`,
    ),
    table: 'bindings',
  },
  {
    rule: 'db.column-missing',
    what: 'run without state_mode',
    apply: sql('ALTER TABLE run DROP COLUMN state_mode'),
    table: 'run',
  },
  {
    rule: 'db.table-unknown',
    what: 'an extension table without x_',
    apply: sql('CREATE TABLE metrics (x)'),
    table: 'metrics',
  },
  { rule: 'db.run-row', what: 'no run row', apply: sql('DELETE FROM run') },
  { rule: 'db.run-id', what: 'run.id of another run', apply: sql("UPDATE run SET id = '20260116-143052-ffffff'") },
  { rule: 'db.run-status', what: "status 'paused'", apply: sql("UPDATE run SET status = 'paused'") },
  {
    rule: 'db.binding-duplicate',
    what: 'two root rows for research',
    apply: sql(
      "DROP INDEX bindings_name_scope; INSERT INTO bindings (name, kind, value) VALUES ('research', 'let', 'again')",
    ),
    table: 'bindings',
  },
  {
    rule: 'db.binding-kind',
    what: "kind 'var'",
    apply: sql("UPDATE bindings SET kind = 'var' WHERE name = 'research'"),
  },
  {
    rule: 'db.binding-name',
    what: "a binding named '../x'",
    apply: sql("UPDATE bindings SET name = '../x' WHERE name = 'research'"),
  },
  {
    rule: 'db.binding-execution-id',
    what: 'execution_id 0',
    apply: sql("UPDATE bindings SET execution_id = 0 WHERE name = 'result'"),
  },
  {
    rule: 'db.binding-too-large',
    what: 'a 200,000-byte value inline',
    apply: sql("UPDATE bindings SET value = printf('%.*c', 200000, 'x') WHERE name = 'research'"),
  },
  {
    rule: 'db.attachment',
    what: 'an attachment_path outside the run',
    apply: sql("UPDATE bindings SET attachment_path = '../../outside.md' WHERE name = 'full_report'"),
  },
  {
    rule: 'db.execution-parent',
    what: 'parent_id 999',
    apply: sql('UPDATE execution SET parent_id = 999 WHERE id = 3'),
  },
  {
    rule: 'db.execution-status',
    what: "status 'done'",
    apply: sql("UPDATE execution SET status = 'done' WHERE id = 1"),
  },
  {
    rule: 'db.agent-name',
    what: "an agent named 'a/b'",
    apply: sql("INSERT INTO agents (name, scope) VALUES ('a/b', 'execution')"),
  },
  { rule: 'db.agent-scope', what: "scope 'global'", apply: sql("UPDATE agents SET scope = 'global'") },
  {
    rule: 'db.agent-scope-place',
    what: 'a project agent in state.db',
    apply: sql("UPDATE agents SET scope = 'project'"),
  },
  {
    rule: 'db.segment-duplicate',
    what: 'segment 2 twice (no UNIQUE)',
    table: 'agent_segments',
    apply: sql(`ALTER TABLE agent_segments RENAME TO old_segments;
    CREATE TABLE agent_segments (id INTEGER PRIMARY KEY AUTOINCREMENT, agent_name TEXT, segment_number INTEGER, timestamp TEXT, prompt TEXT, summary TEXT);
    INSERT INTO agent_segments SELECT * FROM old_segments; DROP TABLE old_segments;
    INSERT INTO agent_segments (agent_name, segment_number) VALUES ('captain', 2)`),
  },
  {
    rule: 'db.segment-sequence',
    what: 'segments 1 and 3',
    apply: sql('UPDATE agent_segments SET segment_number = 3 WHERE segment_number = 2'),
  },
  {
    rule: 'db.segment-agent',
    what: 'segments of an agent with no row',
    apply: sql("INSERT INTO agent_segments (agent_name, segment_number) VALUES ('ghost', 1)"),
  },
  {
    rule: 'db.receipt-json',
    what: 'a receipt whose wake is not JSON',
    apply: planted("UPDATE receipt SET wake = '{oops' WHERE node = 'notes'"),
    table: 'receipt',
  },
  {
    rule: 'wm.receipt.sig',
    what: 'a receipt row with sig NULL (current shape: nothing stops it)',
    apply: forged(4, (b) => delete b.sig, 'current'),
    table: 'receipt',
  },
  {
    rule: 'wm.receipt.signer-unverified',
    what: 'a receipt signed with a scheme verify does not know',
    apply: forged(4, (b) => (b.sig = { scheme: 'ed25519', key: 'k', value: 'v' })),
    table: 'receipt',
  },
  {
    rule: 'wm.receipt.field',
    what: "status 'bogus' (current shape: no CHECK), re-chained",
    apply: forged(1, (b) => (b.status = 'bogus'), 'current'),
    table: 'receipt',
  },
  {
    rule: 'wm.receipt.wake',
    what: 'wake with a key of its own',
    apply: forged(4, (b) => (b.wake = { source: 'input', refs: [], why: 'x' })),
    table: 'receipt',
  },
  {
    rule: 'wm.receipt.fingerprints',
    what: 'an empty facet token',
    apply: forged(4, (b) => (b.fingerprints = { '@atomic': ADDRESS.n1, tone: '' })),
    table: 'receipt',
  },
  {
    rule: 'wm.receipt.cost',
    what: 'cost with an empty model',
    apply: forged(4, (b) => ((b.cost as Record<string, unknown>).model = '')),
    table: 'receipt',
  },
  {
    rule: 'wm.receipt.surprise-cause',
    what: 'surprise_cause self on an input wake',
    apply: forged(4, (b) => ((b.cost as Record<string, unknown>).surprise_cause = 'self')),
    table: 'receipt',
  },
  {
    rule: 'wm.receipt.sig',
    what: 'a none signature without null_reason',
    apply: forged(4, (b) => (b.sig = { scheme: 'none' })),
    table: 'receipt',
  },
  {
    rule: 'wm.receipt.skipped',
    what: 'a skipped receipt with a semantic diff',
    apply: forged(1, (b) => (b.semantic_diff = { changed: ['truth.md'] })),
    table: 'receipt',
  },
  {
    rule: 'wm.receipt.hash',
    what: 'the last receipt of notes updated in place',
    apply: planted("UPDATE receipt SET contract_fingerprint = 'c2' WHERE node = 'notes'"),
    table: 'receipt',
  },
  {
    rule: 'wm.chain.prev',
    what: 'a forked chain: notes starts from a prev, stamped anew',
    apply: forged(4, (b) => (b.prev = ADDRESS.v1)),
    table: 'receipt',
  },
  {
    rule: 'wm.status.copy-forward',
    what: 'a failed receipt that moves @atomic',
    apply: forged(2, (b) => (b.fingerprints = { '@atomic': ADDRESS.v2 })),
    table: 'receipt',
  },
  {
    rule: 'wm.bin-hash',
    what: 'a version blob that is not its address',
    apply: planted(`UPDATE world_model_version SET artifact = X'00' WHERE version = '${ADDRESS.v1}'`),
    table: 'world_model_version',
  },
  {
    rule: 'wm.version-attachment',
    what: 'a version offloaded to a path that leaves attachments/ (the current shape, whose artifact may be NULL)',
    apply: async (s) => {
      await plantLedger(s, undefined, 'current');
      await s.exec(
        `UPDATE world_model_version SET artifact = NULL, attachment_path = '../v1.bin' WHERE version = '${ADDRESS.v1}'`,
      );
    },
    table: 'world_model_version',
  },
  {
    rule: 'wm.published-match',
    what: 'published pointing at an older version',
    apply: planted(`UPDATE world_model_published SET version = '${ADDRESS.v1}' WHERE node = 'summary'`),
    table: 'world_model_published',
  },
  {
    rule: 'wm.atomic-version',
    what: 'a rendered version with no row',
    apply: planted(`DELETE FROM world_model_version WHERE version = '${ADDRESS.v1}'`),
    table: 'receipt',
  },
  {
    rule: 'proj.world_model_published.stale',
    what: 'the current columns, and published pointing at an older version',
    apply: async (s) => {
      await s.exec(TO_CURRENT_COLUMNS);
      await plantLedger(s, undefined, 'current');
      await s.exec(`UPDATE world_model_published SET version = '${ADDRESS.v1}' WHERE node = 'summary'`);
    },
    table: 'world_model_published',
  },
];
