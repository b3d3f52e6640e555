import type { PostgresStore } from '../../backends/postgres/index.ts';
import { SqliteStore } from '../../backends/sqlite/index.ts';
import type { BackendEnv } from '../../core/backend.ts';
import type { RunRecord, RunRef } from '../../core/model.ts';
import type { WorldModelStore } from '../../core/store.ts';
import { canonicalJson } from '../../canon/canonical-json.ts';
import { receiptHash } from '../../canon/validate-receipt.ts';
import type { Mutant } from '../mutant.ts';
import { pgQueryOf, postgresMutant } from '../postgres-mutant.ts';
import { runFileOf, sqliteMutant, storeOf, type JudgedEdition } from '../sqlite-mutant.ts';

/** Judged in the current edition, where sqlite's receipt table keeps no content_hash (the text's), on these areas. */
const CURRENT: JudgedEdition = { edition: 'current', areas: ['world-model', 'receipts', 'sql-layout'] };

/** The sqlite store with its world-model tables' store replaced in part (`wm` sees the real one and the store). */
function withWorldModel(
  env: BackendEnv,
  wm: (real: WorldModelStore, store: SqliteStore) => Partial<WorldModelStore>,
): SqliteStore {
  const store = storeOf(env);
  const real = store.worldModel;
  // The replaced methods see the real store's private fields through the prototype.
  return Object.assign(store, { worldModel: Object.assign(Object.create(real) as WorldModelStore, wm(real, store)) });
}

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The id of the node's receipt row before its newest. */
const PREVIOUS_ROW = (node: string) =>
  `(SELECT max(id) FROM receipt WHERE node = ${quote(node)} AND id < (SELECT max(id) FROM receipt WHERE node = ${quote(node)}))`;

/** A state.db whose bindings table keeps v0's column name `kind` where the current Core Schema says `binding`. */
class V0KindColumnStore extends SqliteStore {
  constructor(env: BackendEnv) {
    super(env.projectDir, env.homeDir, env.decisions, undefined, env.edition ?? 'v0');
    const sql = (this as unknown as { sql: { kindColumn: string } }).sql;
    if (this.edition === 'current') Object.assign(this, { sql: { ...sql, kindColumn: 'kind' } });
  }
  private async renamed(ref: RunRef): Promise<RunRef> {
    if (this.edition === 'current')
      await (await runFileOf(this, ref)).write((db) => db.exec('ALTER TABLE bindings RENAME COLUMN binding TO kind'));
    return ref;
  }
  override async createRun(rec: RunRecord): Promise<RunRef> {
    return this.renamed(await super.createRun(rec));
  }
  override async createImport(parent: RunRef, handle: string, slug: string, rec: RunRecord): Promise<RunRef> {
    return this.renamed(await super.createImport(parent, handle, slug, rec));
  }
}

/** The world-model store's methods a bug replaces, given the real store. */
type WmBug = (real: WorldModelStore) => Partial<WorldModelStore>;

/** prev names the node's first receipt (ORDER BY id where ORDER BY id DESC was meant); the hash is re-stamped. */
const PREV_FIRST: WmBug = (real) => ({
  async appendReceipt(run, node, receiptJson) {
    const receipt = JSON.parse(receiptJson) as Record<string, unknown>;
    const [first] = await real.readReceipts(run, node);
    if (receipt.prev !== null && first !== undefined) {
      receipt.prev = (JSON.parse(first) as { content_hash: string }).content_hash;
      receipt.content_hash = receiptHash(receipt);
    }
    return real.appendReceipt(run, node, canonicalJson(receipt));
  },
});

/** Each append also writes the node's receipt count into the cost of its previous row (`rewrite`), in place. */
const REWRITES_PREVIOUS =
  (rewrite: (run: RunRef, node: string) => Promise<void>): WmBug =>
  (real) => ({
    async appendReceipt(run, node, receiptJson) {
      await real.appendReceipt(run, node, receiptJson);
      await rewrite(run, node);
    },
  });

/** The artifact goes through text (decoded as UTF-8 and encoded again) on its way into the table. */
const VERSION_AS_TEXT: WmBug = (real) => ({
  writeVersion: (run, node, address, bytes) =>
    real.writeVersion(run, node, address, new TextEncoder().encode(new TextDecoder().decode(bytes))),
});

/** publish as INSERT OR IGNORE (ON CONFLICT DO NOTHING): the node's first version stays published. */
const PUBLISHED_FIRST: WmBug = (real) => ({
  async publish(run, node, address) {
    if ((await real.readPublished(run, node)) === null) await real.publish(run, node, address);
  },
});

const BUGS = {
  'receipt-prev-first':
    "a commit's prev names the node's first receipt (ORDER BY id, not ORDER BY id DESC), forking the chain",
  'receipt-rewritten':
    "each commit writes the node's running receipt count into its previous receipt row's cost, in place",
  'version-as-text':
    'a version is stored as text (decoded as UTF-8 and encoded again), so bytes that are not UTF-8 no longer hash to the address',
  'published-first': "publish is INSERT OR IGNORE: the node's published row keeps its first version",
};

/** The sqlite store rewriting the node's previous receipt row with SQL on its own connection. */
const sqliteRewrite = (store: SqliteStore) => async (run: RunRef, node: string) => {
  await (
    await runFileOf(store, run)
  ).write((db) =>
    db.exec(
      `UPDATE receipt SET cost = json_set(cost, '$.running_count', ` +
        `(SELECT count(*) FROM receipt WHERE node = ${quote(node)})) WHERE id = ${PREVIOUS_ROW(node)}`,
    ),
  );
};

/** The same on PostgreSQL: the cost of the node's row before its newest, read and written back with the count. */
const postgresRewrite = (store: PostgresStore) => async (_run: RunRef, node: string) => {
  const db = pgQueryOf(store);
  const rows = await db.query('SELECT id, cost FROM openprose.receipt WHERE node = $1 ORDER BY id DESC', [node]);
  if (rows.length < 2) return;
  const cost = typeof rows[1]!.cost === 'string' ? JSON.parse(rows[1]!.cost) : rows[1]!.cost;
  const count = JSON.stringify({ ...(cost as object), running_count: rows.length });
  await db.query('UPDATE openprose.receipt SET cost = $1::jsonb WHERE id = $2', [count, rows[1]!.id]);
};

const sqliteWm = (name: keyof typeof BUGS, bug: (store: SqliteStore) => WmBug) =>
  sqliteMutant(`sqlite-${name}`, BUGS[name], (env) => withWorldModel(env, (real, store) => bug(store)(real)), CURRENT);
const postgresWm = (name: keyof typeof BUGS, bug: (store: PostgresStore) => WmBug) =>
  postgresMutant(`postgres-${name}`, BUGS[name], (real, store) => bug(store)(real), CURRENT);

/**
 * The SQL ledger's tamperings as backend bugs (issue #33 item 5), on the sqlite backend and the postgres backend on
 * pg-mem: a commit chained to the wrong receipt, a receipt row changed after it was written, a version stored as
 * text, a published pointer that never moves, and (sqlite) v0's column name in the current schema. `verify` names each
 * by its rule (spec/selftest/sql-ledger-mutants.spec.ts); here the suite must kill each through what a reader of the
 * backend sees.
 */
export const SQL_LEDGER_MUTANTS: Mutant[] = [
  sqliteWm('receipt-prev-first', () => PREV_FIRST),
  sqliteWm('receipt-rewritten', (store) => REWRITES_PREVIOUS(sqliteRewrite(store))),
  sqliteWm('version-as-text', () => VERSION_AS_TEXT),
  sqliteWm('published-first', () => PUBLISHED_FIRST),
  sqliteMutant(
    'sqlite-current-kind-column',
    "the current edition's bindings table keeps v0's column name kind instead of binding",
    (env) => new V0KindColumnStore(env),
    CURRENT,
  ),
  postgresWm('receipt-prev-first', () => PREV_FIRST),
  postgresWm('receipt-rewritten', (store) => REWRITES_PREVIOUS(postgresRewrite(store))),
  postgresWm('version-as-text', () => VERSION_AS_TEXT),
  postgresWm('published-first', () => PUBLISHED_FIRST),
];
