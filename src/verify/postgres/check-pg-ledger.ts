import { contentAddressOf, RECEIPT_JSON_FIELDS, RECEIPT_ROW_FIELDS } from '../../canon/index.ts';
import type { Edition } from '../../core/editions.ts';
import type { Finding } from '../finding.ts';
import { checkNodeLedger, type ChainEntry, type NodeLedger } from '../kit/check-ledger.ts';
import type { FindingSink } from '../kit/finding-sink.ts';
import { MAX_ROWS_CHECKED } from '../state-db/query-budget.ts';
import { envelopeOfReceiptRow } from '../state-db/receipt-rows.ts';
import { DEFAULT_MAX_FILE_BYTES } from '../kit/tree-rules.ts';
import { readOffloaded, type Offloaded, type OffloadPlace } from '../state-db/offloaded-version.ts';
import { isRunId } from '../../core/run-id.ts';
import type { PgSchemaReader } from './pg-reader.ts';
import { PG_RULES, type PgRuleId } from './rules.ts';
import { checkPgPublishedProjection } from './pg-published-projection.ts';
import type { TablePlan } from '../projections/index.ts';

type Sink = FindingSink<PgRuleId>;
type Row = Record<string, unknown>;

/**
 * The canonical store of postgres.md on a schema, by the rules `verify state.db` applies (same ids): each chain's
 * envelopes, prev pointers and statuses (check-ledger.ts), each version's bytes hashing to its address, the published
 * pointer naming the chain's last @atomic, each rendered @atomic stored. A chain is a node's in the current edition
 * (decision pg-current-durable-ledger) and a run's node's in v0 (decision wm-sql-keys), so `key` groups rows by
 * node, or by run and node.
 */
/** What a ledger check is given besides the reader: where plans go (--rebuild-projections), where offloads live. */
export interface PgLedgerExtra {
  plans?: TablePlan[];
  root?: string;
}

export async function checkPgLedger(
  r: PgSchemaReader,
  edition: Edition,
  sink: Sink,
  { plans, root }: PgLedgerExtra = {},
): Promise<void> {
  const perRun = edition === 'v0';
  const keyed = perRun ? ['run_id', 'node', 'version'] : ['node', 'version'];
  const cols = {
    receipt: await r.columns('receipt', ['id', 'run_id', ...RECEIPT_ROW_FIELDS, 'content_hash']),
    world_model_version: await usable(r, 'world_model_version', [...keyed, 'artifact', 'attachment_path'], sink),
    world_model_published: await usable(r, 'world_model_published', keyed, sink),
  };
  // v0 creates the world-model tables on first use: none is a schema whose runs never committed.
  if (!cols.receipt) return;
  const key = (row: Row) =>
    perRun ? `run_id=${lit(String(row.run_id))}, node=${lit(String(row.node))}` : `node=${lit(String(row.node))}`;
  const ledgers = await readChains(r, cols.receipt, perRun, key, sink);
  if (!ledgers) return;
  const offloaded = root !== undefined && !perRun ? (path: string) => readOffloadedUnder(root, path) : undefined;
  const stored = cols.world_model_version ? await checkVersions(r, perRun, key, sink, offloaded) : undefined;
  if (stored === null) return;
  // The current texts call the pointer a projection (decision sql-projections); v0 keeps wm.published-match.
  if (cols.world_model_published && !perRun) await checkPgPublishedProjection(r, ledgers, stored, sink, plans);
  else if (cols.world_model_published) await checkPublished(r, perRun, key, ledgers, sink);
  if (stored)
    for (const [k, ledger] of ledgers)
      for (const rendered of ledger?.rendered ?? [])
        if (!stored.has(`${k}\u0000${rendered.atomic}`))
          sink.add(
            'wm.atomic-version',
            `rendered receipt ${rendered.index} (${k}) has @atomic ${rendered.atomic}, not stored`,
            {
              table: 'openprose.receipt',
              row: `${k}, receipt ${rendered.index}`,
            },
          );
}

/** The table's columns when it has every one of `need`; a table lacking some is db.column-missing and not read. */
async function usable(r: PgSchemaReader, table: string, need: string[], sink: Sink): Promise<Set<string> | undefined> {
  const have = await r.columns(table, need);
  const missing = need.filter((c) => !have?.has(c));
  if (!have || missing.length === 0) return have;
  sink.add('db.column-missing', `table openprose.${table} has no column ${missing.join(', ')}`, {
    table: `openprose.${table}`,
  });
  return undefined;
}

/** Rows of one table, at most MAX_ROWS_CHECKED: past it the table is db.budget and nothing leaning on it is judged. */
async function capped(r: PgSchemaReader, table: string, sql: string, sink: Sink): Promise<Row[] | null> {
  const rows = await r.query(`${sql} LIMIT ${MAX_ROWS_CHECKED + 1}`);
  if (rows.length <= MAX_ROWS_CHECKED) return rows;
  sink.add(
    'db.budget',
    `table ${table} holds more than ${MAX_ROWS_CHECKED} rows: the world-model tables are not checked`,
    {
      table,
    },
  );
  return null;
}

async function readChains(
  r: PgSchemaReader,
  have: Set<string>,
  perRun: boolean,
  key: (row: Row) => string,
  sink: Sink,
): Promise<Map<string, NodeLedger | null> | null> {
  const need = ['id', ...RECEIPT_ROW_FIELDS, ...(perRun ? ['run_id'] : [])];
  const missing = need.filter((c) => !have.has(c));
  if (missing.length) {
    sink.add('db.column-missing', `table openprose.receipt has no column ${missing.join(', ')}`, {
      table: 'openprose.receipt',
    });
    return null;
  }
  const hasHash = have.has('content_hash');
  // JSONB as text, so a row reads back exactly as a SQLite row does (receipt-rows.ts parses it).
  const select = need.map((c) => (RECEIPT_JSON_FIELDS.includes(c) ? `${c}::text AS ${c}` : c));
  if (hasHash) select.push('content_hash');
  const order = perRun ? 'run_id, node, id' : 'node, id';
  const rows = await capped(
    r,
    'openprose.receipt',
    `SELECT ${select.join(', ')} FROM openprose.receipt ORDER BY ${order}`,
    sink,
  );
  if (!rows) return null;
  const chains = new Map<string, ChainEntry[] | null>();
  for (const row of rows) {
    const k = key(row);
    const chain = chains.get(k);
    if (chain === null) continue;
    const read = envelopeOfReceiptRow(row as Parameters<typeof envelopeOfReceiptRow>[0], hasHash);
    const place = { table: 'openprose.receipt', row: `id=${String(row.id)}`, node: String(row.node) };
    if ('badColumn' in read) {
      sink.add('db.receipt-json', `receipt.${read.badColumn} is not JSON (${read.error}): ${k} not checked`, place);
      chains.set(k, null);
      continue;
    }
    const list = chain ?? [];
    list.push({ receipt: read.envelope, index: list.length, place: { ...place, receipt: list.length } });
    chains.set(k, list);
  }
  const ledgers = new Map<string, NodeLedger | null>();
  for (const [k, chain] of chains) {
    const found: Finding[] = [];
    ledgers.set(k, chain && checkNodeLedger('wm.', chain, found));
    for (const f of found) sink.out.push({ ...f, hint: f.hint ?? PG_RULES[f.rule as PgRuleId]?.hint });
  }
  return ledgers;
}

/** `key\0version` of every stored version (null past the row cap); each artifact must hash to its version. */
async function checkVersions(
  r: PgSchemaReader,
  perRun: boolean,
  key: (row: Row) => string,
  sink: Sink,
  offloaded: ((attachmentPath: string) => Offloaded) | undefined,
): Promise<Set<string> | null> {
  const table = 'openprose.world_model_version';
  const rows = await capped(
    r,
    table,
    `SELECT ${perRun ? 'run_id, ' : ''}node, version, artifact, attachment_path FROM ${table}`,
    sink,
  );
  if (!rows) return null;
  const stored = new Set<string>();
  for (const row of rows) {
    const version = String(row.version);
    stored.add(`${key(row)}\u0000${version}`);
    const place = { table, row: `${key(row)}, version=${lit(version)}` };
    let bytes = bytesOf(row.artifact);
    if (row.artifact === null && row.attachment_path !== null) {
      // An artifact kept as a file is read only with the tree it belongs to (decision verify-db-offloaded-version).
      const read = offloaded?.(String(row.attachment_path));
      if (!read) continue;
      if ('tooLarge' in read) sink.add('db.budget', read.tooLarge, place);
      if ('problem' in read) sink.add('wm.version-attachment', read.message, place);
      if (!('bytes' in read)) continue;
      bytes = read.bytes;
    }
    const actual = contentAddressOf(bytes);
    if (actual !== version) sink.add('wm.bin-hash', `the artifact of version ${version} hashes to ${actual}`, place);
  }
  return stored;
}

async function checkPublished(
  r: PgSchemaReader,
  perRun: boolean,
  key: (row: Row) => string,
  ledgers: Map<string, NodeLedger | null>,
  sink: Sink,
): Promise<void> {
  const table = 'openprose.world_model_published';
  const rows = await capped(r, table, `SELECT ${perRun ? 'run_id, ' : ''}node, version FROM ${table}`, sink);
  if (!rows) return;
  const published = new Map(rows.map((row) => [key(row), row.version === null ? undefined : String(row.version)]));
  for (const k of new Set([...published.keys(), ...ledgers.keys()])) {
    const ledger = ledgers.get(k);
    if (ledger === null) continue;
    const expected = ledger && ledger.rendered.length > 0 ? ledger.lastAtomic : undefined;
    const version = published.get(k);
    if (version !== expected)
      sink.add(
        'wm.published-match',
        `world_model_published says ${version ?? '(no row)'} but the last non-failed receipt has @atomic ` +
          `${expected ?? '(none rendered: nothing published)'}`,
        { table, row: k },
      );
  }
}

/**
 * The current postgres.md keys a version by its address alone, with no run, and places attachments/ under
 * `runs/{id}/` of the openprose root: attachment_path is read relative to the root, under runs/{id}/attachments/.
 */
const ROOT_ATTACHMENTS: OffloadPlace = {
  holds: (parts) => parts[0] === 'runs' && isRunId(parts[1] ?? '') && parts[2] === 'attachments' && parts.length >= 4,
  says: 'runs/{id}/attachments/',
};

const readOffloadedUnder = (root: string, path: string) =>
  readOffloaded(root, path, DEFAULT_MAX_FILE_BYTES, ROOT_ATTACHMENTS);

/** BYTEA as pg gives it (a Buffer) or as text (`\x..` hex). */
function bytesOf(v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  const s = String(v ?? '');
  return s.startsWith('\\x') ? new Uint8Array(Buffer.from(s.slice(2), 'hex')) : new TextEncoder().encode(s);
}

/** A text as a SQL literal, so a hostile node name cannot blur where a finding points. */
const lit = (v: string) => `'${v.replaceAll("'", "''")}'`;
