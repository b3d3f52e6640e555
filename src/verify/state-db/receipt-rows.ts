import {
  RECEIPT_HASH_ALGORITHM,
  RECEIPT_JSON_FIELDS,
  RECEIPT_ROW_FIELDS,
  RECEIPT_SCHEMA,
  receiptHash,
} from '../../canon/index.ts';
import type { SqlRow } from '../../sqlite/index.ts';

/** A receipt row read back to its envelope, or the column whose JSON does not parse. */
export type RowEnvelope = { envelope: Record<string, unknown>; stored: boolean } | { badColumn: string; error: string };

/**
 * A receipt row back to the envelope it stands for (decision verify-db-ledger): schema and hash_algorithm are the
 * format's constants, JSON columns are parsed, a NULL column is a null value (prev NULL is the cold start;
 * elsewhere the field's own rule names it). Where the
 * table has no content_hash column (the current text's shape) the hash is computed, so the chain can still be
 * followed, and `stored` is false: nothing then says the row was not rewritten.
 */
export function envelopeOfReceiptRow(row: SqlRow, hasContentHash: boolean): RowEnvelope {
  const env: Record<string, unknown> = { schema: RECEIPT_SCHEMA, hash_algorithm: RECEIPT_HASH_ALGORITHM };
  for (const c of RECEIPT_ROW_FIELDS) {
    const v = row[c];
    if (v === null || v === undefined) {
      env[c] = null;
      continue;
    }
    if (!RECEIPT_JSON_FIELDS.includes(c)) {
      env[c] = v;
      continue;
    }
    try {
      env[c] = JSON.parse(String(v));
    } catch (err) {
      return { badColumn: c, error: (err as Error).message };
    }
  }
  if (hasContentHash) {
    if (row.content_hash !== null && row.content_hash !== undefined) env.content_hash = row.content_hash;
    return { envelope: env, stored: true };
  }
  try {
    env.content_hash = receiptHash(env);
  } catch {
    // No canonical JSON: validateReceipt names it under receipt.hash.
  }
  return { envelope: env, stored: false };
}
