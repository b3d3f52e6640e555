import { contentAddressOf, RECEIPT_ROW_FIELDS } from '../../canon/index.ts';
import type { SqlRow } from '../../sqlite/index.ts';
import { checkNodeLedger, type ChainEntry, type NodeLedger } from '../kit/check-ledger.ts';
import type { FindingSink } from '../kit/finding-sink.ts';
import { MAX_ROWS_CHECKED } from './query-budget.ts';
import { envelopeOfReceiptRow } from './receipt-rows.ts';
import type { Finding } from '../finding.ts';
import type { Offloaded } from './offloaded-version.ts';
import { STATE_DB_RULES, type StateDbRuleId } from './rules.ts';
import { checkPublishedProjection } from './published-projection.ts';
import type { TablePlan } from '../projections/index.ts';

type Sink = FindingSink<StateDbRuleId>;
type Q = (sql: string, params?: unknown[]) => SqlRow[];

/** What the world-model checks need of the database: a query, its tables and each table's columns. */
export interface WmTables {
  q: Q;
  file: string;
  /** Tables (not views) present, each with its column names. */
  columns: Map<string, Set<string>>;
  /** World-model names that are views, not tables: reported and not read, so nothing leaning on them is judged. */
  notTables: string[];
  /** Rows of a table, counted up to one past MAX_ROWS_CHECKED. */
  count(table: string): number;
  /** world_model_version keyed by the address alone (the current text): a node's version may be another node's row. */
  sharedVersions?: boolean;
  /** The current edition: world_model_published is a projection (decision sql-projections), its plan put here. */
  projections?: TablePlan[];
  /** Reads an offloaded version's attachment_path (offloaded-version.ts); absent where there is no tree to read. */
  offloaded?: (attachmentPath: string) => Offloaded;
}

const NEEDS: Record<string, readonly string[]> = {
  receipt: RECEIPT_ROW_FIELDS,
  world_model_version: ['node', 'version', 'artifact'],
  world_model_published: ['node', 'version'],
};

/**
 * The canonical store of sqlite.md in a state.db (decision verify-db-ledger): every node's receipt chain through the
 * filesystem ledger's checker (wm.* rules), each version's bytes hashing to its address, the published pointer naming
 * the ledger's last @atomic (that it is stored then follows from wm.atomic-version). The tables are optional (a run
 * that never committed has none); present, they are read.
 */
export function checkWorldModelTables(t: WmTables, sink: Sink): void {
  const usable = new Set<string>();
  for (const [table, need] of Object.entries(NEEDS)) {
    const have = t.columns.get(table);
    if (!have) continue;
    const missing = need.filter((c) => !have.has(c));
    if (missing.length)
      sink.add('db.column-missing', `table ${table} has no column ${missing.join(', ')}`, { file: t.file, table });
    else if (t.count(table) > MAX_ROWS_CHECKED)
      // A cut ledger would look like a stale pointer: past the cap, nothing that leans on the table is judged.
      sink.add(
        'db.budget',
        `table ${table} holds more than ${MAX_ROWS_CHECKED} rows: the world-model tables are not checked`,
        {
          file: t.file,
          table,
        },
      );
    else usable.add(table);
  }
  if (t.notTables.length > 0 || usable.size < [...t.columns.keys()].filter((k) => k in NEEDS).length) return;
  const ledgers = usable.has('receipt') ? checkReceipts(t, sink) : new Map<string, NodeLedger | null>();
  const stored = usable.has('world_model_version') ? checkVersions(t, sink) : undefined;
  if (usable.has('world_model_published')) {
    if (t.projections) checkPublishedProjection(t, sink, ledgers, stored);
    else checkPublished(t, sink, ledgers);
  }
  if (stored) checkRenderedStored(t, sink, ledgers, stored);
}

/** Each node's chain, in id order; null for a node whose rows could not be read back (reported as db.receipt-json). */
function checkReceipts(t: WmTables, sink: Sink): Map<string, NodeLedger | null> {
  const hasHash = t.columns.get('receipt')!.has('content_hash');
  const cols = ['id', ...RECEIPT_ROW_FIELDS, ...(hasHash ? ['content_hash'] : [])].join(', ');
  const chains = new Map<string, ChainEntry[] | null>();
  for (const row of t.q(`SELECT ${cols} FROM receipt ORDER BY node, id`)) {
    const node = String(row.node);
    const chain = chains.get(node);
    if (chain === null) continue;
    const read = envelopeOfReceiptRow(row, hasHash);
    const place = { file: t.file, table: 'receipt', row: `id=${String(row.id)}`, node };
    if ('badColumn' in read) {
      sink.add('db.receipt-json', `receipt.${read.badColumn} is not JSON (${read.error}): node ${node} not checked`, {
        file: t.file,
        table: 'receipt',
        row: place.row,
      });
      chains.set(node, null);
      continue;
    }
    const list = chain ?? [];
    list.push({ receipt: read.envelope, index: list.length, place: { ...place, receipt: list.length } });
    chains.set(node, list);
  }
  const ledgers = new Map<string, NodeLedger | null>();
  for (const [node, chain] of chains) {
    const found: Finding[] = [];
    ledgers.set(node, chain && checkNodeLedger('wm.', chain, found));
    // The ledger table has no hints; a SQL row gets the state-db one (what to do in a database). The file is the
    // sink's, so a state.db under runs/{id}/ of a verified root is named from that root.
    for (const f of found) {
      const file = f.file === undefined ? {} : { file: sink.path(f.file) };
      sink.out.push({ ...f, ...file, hint: f.hint ?? STATE_DB_RULES[f.rule as StateDbRuleId]?.hint });
    }
  }
  return ledgers;
}

const artifactBytes = (v: unknown): Uint8Array =>
  v instanceof Uint8Array ? v : new TextEncoder().encode(String(v ?? ''));

/** An offloaded artifact's bytes, or undefined with the finding of why not (none where there is no tree to read). */
function offloadedBytes(
  t: WmTables,
  path: string,
  sink: Sink,
  place: { file: string; table: string; row: string },
): Uint8Array | undefined {
  const read = t.offloaded?.(path);
  if (!read || 'bytes' in read) return read?.bytes;
  if ('tooLarge' in read) sink.add('db.budget', read.tooLarge, place);
  else sink.add('wm.version-attachment', read.message, place);
  return undefined;
}

/** Addresses stored per node; each artifact, in the row or offloaded to attachments/, must hash to its version. */
function checkVersions(t: WmTables, sink: Sink): Map<string, Set<string>> {
  const stored = new Map<string, Set<string>>();
  const offload = t.columns.get('world_model_version')!.has('attachment_path');
  const rows = t.q(
    `SELECT node, version, artifact${offload ? ', attachment_path' : ', NULL AS attachment_path'} FROM world_model_version`,
  );
  for (const r of rows) {
    const node = String(r.node);
    const version = String(r.version);
    stored.set(node, (stored.get(node) ?? new Set()).add(version));
    const place = { file: t.file, table: 'world_model_version', row: `node=${lit(node)}, version=${lit(version)}` };
    const offloaded = r.artifact === null && r.attachment_path !== null;
    const bytes = offloaded ? offloadedBytes(t, String(r.attachment_path), sink, place) : artifactBytes(r.artifact);
    if (!bytes) continue;
    const actual = contentAddressOf(bytes);
    if (actual !== version)
      sink.add(
        'wm.bin-hash',
        `the ${offloaded ? 'offloaded ' : ''}artifact of version ${version} hashes to ${actual}`,
        place,
      );
  }
  return stored;
}

function checkPublished(t: WmTables, sink: Sink, ledgers: Map<string, NodeLedger | null>): void {
  const published = new Map(t.q('SELECT node, version FROM world_model_published').map((r) => [String(r.node), r]));
  const nodes = new Set([...published.keys(), ...ledgers.keys()]);
  for (const node of nodes) {
    const ledger = ledgers.get(node);
    if (ledger === null) continue;
    const row = published.get(node);
    const place = { file: t.file, table: 'world_model_published', row: `node=${lit(node)}` };
    const expected = ledger && ledger.rendered.length > 0 ? ledger.lastAtomic : undefined;
    const version = row?.version === null || row?.version === undefined ? undefined : String(row.version);
    if (version !== expected)
      sink.add(
        'wm.published-match',
        `world_model_published says ${version ?? '(no row)'} but the last non-failed receipt has @atomic ` +
          `${expected ?? '(none rendered: nothing published)'}`,
        place,
      );
  }
}

function checkRenderedStored(
  t: WmTables,
  sink: Sink,
  ledgers: Map<string, NodeLedger | null>,
  stored: Map<string, Set<string>>,
): void {
  for (const [node, ledger] of ledgers) {
    for (const r of ledger?.rendered ?? [])
      if (!stored.get(node)?.has(r.atomic) && !(t.sharedVersions && [...stored.values()].some((s) => s.has(r.atomic))))
        sink.add('wm.atomic-version', `rendered receipt ${r.index} of ${node} has @atomic ${r.atomic}, not stored`, {
          file: t.file,
          table: 'receipt',
          row: `node=${lit(node)}, receipt ${r.index}`,
        });
  }
}

/** A text as a SQL literal, so a hostile node name cannot blur where a finding points. */
const lit = (v: string) => `'${v.replaceAll("'", "''")}'`;
