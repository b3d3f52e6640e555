import { ProseError } from '../../core/errors.ts';
import type { RunRef } from '../../core/model.ts';
import type { WorldModelStore } from '../../core/store.ts';
import { canonicalJson } from '../../canon/canonical-json.ts';
import { RECEIPT_JSON_FIELDS, RECEIPT_ROW_FIELDS } from '../../canon/receipt.ts';
import type { PgDb } from './pg-db.ts';
import { PgError } from './pg-error.ts';
import type { RowWatch } from './mem-row-watch.ts';
import { ReceiptCache } from './receipt-cache.ts';

/** Our extension tables (postgres.md "Extension tables: Prefix with `x_`"), the same in both editions. */
export const EXTENSION_PG_DDL: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS openprose.x_world_model_workspace (
    run_id TEXT NOT NULL REFERENCES openprose.run(id) ON DELETE CASCADE,
    node TEXT NOT NULL,
    artifact BYTEA NOT NULL,
    PRIMARY KEY (run_id, node)
  )`,
  `CREATE TABLE IF NOT EXISTS openprose.x_run_envelope (
    run_id TEXT PRIMARY KEY REFERENCES openprose.run(id) ON DELETE CASCADE,
    compiled_intent TEXT NOT NULL,
    root_source TEXT NOT NULL,
    sources TEXT NOT NULL
  )`,
];

/**
 * postgres.md's canonical tables in schema openprose, corrected (decision wm-sql-keys): every table is keyed by
 * run (postgres.md has no run_id on world_model_*), versions by (run_id, node, version), receipts one row per
 * envelope plus content_hash. Binary columns are BYTEA holding the OPWM1 bytes. The envelope is an extension table.
 * Created on first use with IF NOT EXISTS, so a schema made before these tables existed is completed in place.
 */
export const WORLD_MODEL_PG_DDL: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS openprose.world_model_version (
    run_id TEXT NOT NULL REFERENCES openprose.run(id) ON DELETE CASCADE,
    node TEXT NOT NULL,
    version TEXT NOT NULL,
    artifact BYTEA NOT NULL,
    attachment_path TEXT,
    created_at TIMESTAMPTZ DEFAULT now(),
    PRIMARY KEY (run_id, node, version)
  )`,
  `CREATE TABLE IF NOT EXISTS openprose.world_model_published (
    run_id TEXT NOT NULL REFERENCES openprose.run(id) ON DELETE CASCADE,
    node TEXT NOT NULL,
    version TEXT NOT NULL,
    PRIMARY KEY (run_id, node)
  )`,
  `CREATE TABLE IF NOT EXISTS openprose.receipt (
    id SERIAL PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES openprose.run(id) ON DELETE CASCADE,
    node TEXT NOT NULL,
    contract_fingerprint TEXT NOT NULL,
    wake JSONB NOT NULL,
    input_fingerprints JSONB NOT NULL,
    fingerprints JSONB NOT NULL,
    semantic_diff JSONB NOT NULL DEFAULT '{}',
    prev TEXT,
    status TEXT NOT NULL CHECK (status IN ('rendered', 'skipped', 'failed')),
    cost JSONB NOT NULL,
    sig JSONB NOT NULL,
    content_hash TEXT NOT NULL,
    created_at TIMESTAMPTZ DEFAULT now()
  )`,
  ...EXTENSION_PG_DDL,
];

export const RECEIPT_COLUMNS = [...RECEIPT_ROW_FIELDS, 'content_hash'];

export const toBytes = (v: unknown): Uint8Array | undefined => {
  if (v === null || v === undefined) return undefined;
  if (v instanceof Uint8Array) return new Uint8Array(v);
  if (typeof v === 'string' && v.startsWith('\\x')) return new Uint8Array(Buffer.from(v.slice(2), 'hex'));
  throw new ProseError('E_CORRUPT', 'a BYTEA column did not read back as bytes');
};

/**
 * Bytes go to the server as hex text through decode(), never as a bound Buffer: pg-mem reads a Buffer parameter as
 * UTF-8 text, so every byte sequence that is not UTF-8 (an OPWM1 length of 154 has the byte 0x9a) came back as
 * U+FFFD and the version no longer hashed to its address. pg-mem gets decode() from postgres-mem-factory.ts.
 */
export const hexOf = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

const DDL_RACE_CODES = new Set(['23505', '42P07', '42710']);

/** The world-model store of the PostgreSQL backend (pg-mem or a real server, through PgDb). */
export class PostgresWorldModelStore implements WorldModelStore {
  private ready: Promise<void> | undefined;

  private readonly receipts: ReceiptCache;

  /**
   * `ddl`: the tables made on first use (the current edition's schema already holds its canonical ones); `watch`:
   * the storage's count of changes to receipts by run and node, when the engine keeps one (pg-mem).
   */
  constructor(
    protected readonly db: PgDb,
    private readonly ddl: readonly string[] = WORLD_MODEL_PG_DDL,
    watch?: RowWatch,
  ) {
    this.receipts = new ReceiptCache(watch);
  }

  private tables(): Promise<void> {
    this.ready ??= (async () => {
      for (const sql of this.ddl) {
        try {
          await this.db.query(sql);
        } catch (err) {
          // Another connection created it at the same moment: it exists now. A real server reports that race as a
          // unique violation on pg_type (23505), duplicate_table (42P07) or, for the table's row type, duplicate_object
          // (42710: "type ... already exists", seen in CI with 20 writers committing at once on a fresh schema).
          if (!(err instanceof PgError && DDL_RACE_CODES.has(err.sqlState ?? ''))) throw err;
        }
      }
    })().catch((err: unknown) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  protected async q<R extends Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<R[]> {
    await this.tables();
    return this.db.query<R>(sql, params as never);
  }

  async writeVersion(run: RunRef, node: string, address: string, bytes: Uint8Array): Promise<void> {
    // Storing the same (run, node, version) twice is a no-op, even when two connections race.
    await this.q(
      `INSERT INTO openprose.world_model_version (run_id, node, version, artifact)
      VALUES ($1, $2, $3, decode($4, 'hex'))
      ON CONFLICT (run_id, node, version) DO NOTHING`,
      [run, node, address, hexOf(bytes)],
    );
  }

  async readVersion(run: RunRef, node: string, address: string): Promise<Uint8Array | undefined> {
    const [row] = await this.q<{ artifact: unknown }>(
      `SELECT artifact FROM openprose.world_model_version WHERE run_id = $1 AND node = $2 AND version = $3`,
      [run, node, address],
    );
    return row ? toBytes(row.artifact) : undefined;
  }

  async publish(run: RunRef, node: string, address: string): Promise<void> {
    if (!(await this.readVersion(run, node, address)))
      throw new ProseError('E_STATE', `version ${address} of ${node} is not stored; write it before publishing`);
    await this.q(
      `INSERT INTO openprose.world_model_published (run_id, node, version) VALUES ($1, $2, $3)
      ON CONFLICT (run_id, node) DO UPDATE SET version = excluded.version`,
      [run, node, address],
    );
  }

  async readPublished(run: RunRef, node: string): Promise<string | null> {
    const [row] = await this.q<{ version: string }>(
      `SELECT version FROM openprose.world_model_published WHERE run_id = $1 AND node = $2`,
      [run, node],
    );
    return row ? String(row.version) : null;
  }

  async appendReceipt(run: RunRef, _node: string, receiptJson: string): Promise<void> {
    const { sql, params, read } = receiptInsert(run, receiptJson);
    await this.tables();
    await this.receipts.append(run, read.node, read.json, () => this.q(sql, params).then(() => undefined));
  }

  async readReceipts(run: RunRef, node?: string): Promise<string[]> {
    const where = node === undefined ? 'run_id = $1' : 'run_id = $1 AND node = $2';
    const query = async () =>
      (
        await this.q<Record<string, unknown>>(
          `SELECT ${RECEIPT_COLUMNS.join(', ')} FROM openprose.receipt WHERE ${where} ORDER BY id`,
          node === undefined ? [run] : [run, node],
        )
      ).map(receiptOfRow);
    if (node === undefined) return query();
    await this.tables();
    return this.receipts.read(run, node, query);
  }

  async writeWorkspace(run: RunRef, node: string, bytes: Uint8Array): Promise<void> {
    await this.q(
      `INSERT INTO openprose.x_world_model_workspace (run_id, node, artifact) VALUES ($1, $2, decode($3, 'hex'))
      ON CONFLICT (run_id, node) DO UPDATE SET artifact = excluded.artifact`,
      [run, node, hexOf(bytes)],
    );
  }

  async writeEnvelope(
    run: RunRef,
    env: { compiledIntentJson: string; rootSource: string; sources: Record<string, string> },
  ): Promise<void> {
    await this.q(
      `INSERT INTO openprose.x_run_envelope (run_id, compiled_intent, root_source, sources) VALUES ($1, $2, $3, $4)`,
      [run, env.compiledIntentJson, env.rootSource, canonicalJson(env.sources)],
    );
  }

  async readEnvelope(
    run: RunRef,
  ): Promise<{ compiledIntentJson: string; rootSource: string; sources: Record<string, string> } | undefined> {
    const [row] = await this.q<{ compiled_intent: string; root_source: string; sources: string }>(
      `SELECT compiled_intent, root_source, sources FROM openprose.x_run_envelope WHERE run_id = $1`,
      [run],
    );
    if (!row) return undefined;
    return {
      compiledIntentJson: row.compiled_intent,
      rootSource: row.root_source,
      sources: JSON.parse(row.sources) as Record<string, string>,
    };
  }
}

/**
 * The INSERT of one receipt envelope (canonical JSON) as a row of openprose.receipt, in either edition, and the
 * receipt as a read of that row answers it (`read`).
 */
export function receiptInsert(
  run: RunRef,
  receiptJson: string,
): { sql: string; params: unknown[]; read: { node: string; json: string } } {
  const env = JSON.parse(receiptJson) as Record<string, unknown>;
  const values = RECEIPT_COLUMNS.map((c) =>
    RECEIPT_JSON_FIELDS.includes(c) ? canonicalJson(env[c]) : ((env[c] as string | null) ?? null),
  );
  const cols = ['run_id', ...RECEIPT_COLUMNS];
  const marks = cols.map((c, i) => (RECEIPT_JSON_FIELDS.includes(c) ? `$${i + 1}::jsonb` : `$${i + 1}`));
  const row = Object.fromEntries(RECEIPT_COLUMNS.map((c, i) => [c, values[i]]));
  return {
    sql: `INSERT INTO openprose.receipt (${cols.join(', ')}) VALUES (${marks.join(', ')})`,
    params: [run, ...values],
    read: { node: String(row.node), json: receiptOfRow(row) },
  };
}

/** A receipt row back to its envelope's canonical JSON (schema and hash_algorithm are the format's constants). */
export function receiptOfRow(row: Record<string, unknown>): string {
  const env: Record<string, unknown> = { schema: 'openprose.receipt', hash_algorithm: 'sha256' };
  for (const c of RECEIPT_COLUMNS) {
    const v = row[c];
    env[c] = RECEIPT_JSON_FIELDS.includes(c) && typeof v === 'string' ? JSON.parse(v) : v;
  }
  return canonicalJson(env);
}
