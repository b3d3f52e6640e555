import { WORLD_MODEL_SQLITE_DDL, rowOfEnvelope } from '../../../src/backends/sqlite/world-model-store.ts';
import { canonicalJson, contentAddressOf, receiptHash, serializeArtifact } from '../../../src/canon/index.ts';
import { RECEIPT_JSON_FIELDS, RECEIPT_ROW_FIELDS } from '../../../src/canon/index.ts';
import type { SeedDb } from './seed-db.ts';

type Body = Record<string, unknown>;
/** Changes a receipt body (index in plant order) before it is stamped, so the forged chain is self-consistent. */
export type Edit = (index: number, body: Body) => void;

const V1 = serializeArtifact({ 'truth.md': 'first\n' });
const V2 = serializeArtifact({ 'truth.md': 'second\n' });
const N1 = serializeArtifact({ 'note.md': 'a note\n' });
export const ADDRESS = { v1: contentAddressOf(V1), v2: contentAddressOf(V2), n1: contentAddressOf(N1) };

const body = (node: string, status: string, atomic: string, fresh: number): Body => ({
  schema: 'openprose.receipt',
  hash_algorithm: 'sha256',
  node,
  contract_fingerprint: 'c1',
  wake: { source: 'input', refs: [] },
  input_fingerprints: [],
  fingerprints: { '@atomic': atomic },
  semantic_diff: status === 'rendered' ? { changed: ['truth.md'] } : {},
  prev: null,
  status,
  cost: { provider: 'p', model: 'm', tokens: { fresh, reused: 0 }, surprise_cause: 'input' },
  sig: { scheme: 'none', null_reason: 'no-signer-adapter-configured' },
});

/** summary: rendered v1, skipped, failed, rendered v2 (plant indexes 0-3); notes: rendered n1 (index 4). */
const PLAN: [string, string, string, number][] = [
  ['summary', 'rendered', ADDRESS.v1, 10],
  ['summary', 'skipped', ADDRESS.v1, 0],
  ['summary', 'failed', ADDRESS.v1, 3],
  ['summary', 'rendered', ADDRESS.v2, 12],
  ['notes', 'rendered', ADDRESS.n1, 5],
];

const lit = (v: unknown) => (v === null || v === undefined ? 'NULL' : `'${String(v).replaceAll("'", "''")}'`);
const blob = (b: Uint8Array) => `X'${Buffer.from(b).toString('hex')}'`;

/**
 * Plants a world-model ledger in the seed database in our sqlite backend's shape (its DDL and row mapping), or in
 * the current sqlite.md shape (`current`: its columns, no content_hash, no NOT NULL), each receipt chained to the
 * last of its node after `edit`.
 */
export async function plantLedger(s: SeedDb, edit: Edit = () => {}, shape: 'ours' | 'current' = 'ours'): Promise<void> {
  const last = new Map<string, string>();
  const inserts = PLAN.map(([node, status, atomic, fresh], i) => {
    const b = body(node, status, atomic, fresh);
    b.prev = last.get(node) ?? null;
    edit(i, b);
    const hash = receiptHash(b);
    last.set(node, hash);
    if (shape === 'ours') {
      const values = rowOfEnvelope(canonicalJson({ ...b, content_hash: hash }));
      return `INSERT INTO receipt (node, contract_fingerprint, wake, input_fingerprints, fingerprints, semantic_diff, cost, sig, prev, status, content_hash) VALUES (${values.map(lit).join(', ')});`;
    }
    const cols = RECEIPT_ROW_FIELDS;
    const json = new Set(RECEIPT_JSON_FIELDS);
    const values = cols.map((c) => (b[c] === undefined ? 'NULL' : lit(json.has(c) ? JSON.stringify(b[c]) : b[c])));
    return `INSERT INTO receipt (${cols.join(', ')}) VALUES (${values.join(', ')});`;
  });
  await s.exec(
    (shape === 'ours' ? WORLD_MODEL_SQLITE_DDL : CURRENT_DDL) +
      `INSERT INTO world_model_version (node, version, artifact) VALUES ('summary', '${ADDRESS.v1}', ${blob(V1)}),
        ('summary', '${ADDRESS.v2}', ${blob(V2)}), ('notes', '${ADDRESS.n1}', ${blob(N1)});
      INSERT INTO world_model_published (node, version) VALUES ('summary', '${ADDRESS.v2}'), ('notes', '${ADDRESS.n1}');
      ${inserts.join('\n')}`,
  );
}

/** The current sqlite.md "Core Schema" world-model tables as written there. */
const CURRENT_DDL = `
CREATE TABLE IF NOT EXISTS world_model_version (version TEXT PRIMARY KEY, node TEXT, artifact BLOB, attachment_path TEXT,
  created_at TEXT DEFAULT (datetime('now')));
CREATE TABLE IF NOT EXISTS world_model_published (node TEXT PRIMARY KEY, version TEXT REFERENCES world_model_version(version),
  updated_at TEXT DEFAULT (datetime('now')));
CREATE TABLE IF NOT EXISTS receipt (id INTEGER PRIMARY KEY AUTOINCREMENT, node TEXT, contract_fingerprint TEXT, wake TEXT,
  input_fingerprints TEXT, fingerprints TEXT, semantic_diff TEXT, prev TEXT, status TEXT, cost TEXT, sig TEXT,
  created_at TEXT DEFAULT (datetime('now')));
`;
