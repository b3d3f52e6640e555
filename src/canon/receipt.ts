import type { ContentAddress } from './content-address.ts';

/** The receipt envelope of the reference ledger (`LedgerReceipt`), field for field. */
export const RECEIPT_SCHEMA = 'openprose.receipt';
export const RECEIPT_HASH_ALGORITHM = 'sha256';
export const WAKE_SOURCES = ['input', 'self', 'external'] as const;
export const RECEIPT_STATUSES = ['rendered', 'skipped', 'failed'] as const;
export const ATOMIC_FACET = '@atomic';
export const DEFAULT_NULL_REASON = 'no-signer-adapter-configured';

/** The exact key set of an envelope: any other key is an error (extra keys are allowed only inside `cost`). */
export const RECEIPT_KEYS = [
  'schema',
  'hash_algorithm',
  'content_hash',
  'node',
  'contract_fingerprint',
  'wake',
  'input_fingerprints',
  'fingerprints',
  'semantic_diff',
  'prev',
  'status',
  'cost',
  'sig',
] as const;

/**
 * The envelope fields a SQL receipt row keeps as JSON (sqlite.md and postgres.md "Core Schema", both editions), and
 * every field a row keeps, one column each: schema and hash_algorithm are the format's constants, and content_hash
 * is a column only where a table stores it.
 */
export const RECEIPT_JSON_FIELDS: readonly string[] = [
  'wake',
  'input_fingerprints',
  'fingerprints',
  'semantic_diff',
  'cost',
  'sig',
];
export const RECEIPT_ROW_FIELDS: readonly string[] = [
  'node',
  'contract_fingerprint',
  ...RECEIPT_JSON_FIELDS,
  'prev',
  'status',
];

export type WakeSource = (typeof WAKE_SOURCES)[number];
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];

export interface ReceiptCost {
  provider: string;
  model: string;
  tokens: { fresh: number; reused: number };
  surprise_cause: WakeSource;
  [extra: string]: unknown;
}

/** What a writer supplies; `receiptFor` stamps `schema`, `hash_algorithm` and `content_hash`. */
export interface ReceiptBody {
  node: string;
  contract_fingerprint: string;
  wake: { source: WakeSource; refs: ContentAddress[] };
  input_fingerprints: string[];
  fingerprints: Record<string, string>;
  semantic_diff: Record<string, unknown>;
  prev: ContentAddress | null;
  status: ReceiptStatus;
  cost: ReceiptCost;
  sig: { scheme: 'none'; null_reason: string };
}

export interface LedgerReceipt extends ReceiptBody {
  schema: typeof RECEIPT_SCHEMA;
  hash_algorithm: typeof RECEIPT_HASH_ALGORITHM;
  content_hash: ContentAddress;
}

/** One thing wrong with a receipt or a chain: a stable rule id, the field path, a message. */
export interface ReceiptProblem {
  rule: string;
  field: string;
  message: string;
  /** Index in the list that was checked (chains). */
  index?: number;
}

/** The only honest v1 signature (the reference has no signer). */
export function nullSignature(reason: string = DEFAULT_NULL_REASON): { scheme: 'none'; null_reason: string } {
  return { scheme: 'none', null_reason: reason };
}

/** The zero cost of a skipped receipt, as the reference's `createSkippedReceipt` writes it. */
export function zeroCost(source: WakeSource): ReceiptCost {
  return { provider: 'none', model: 'none', tokens: { fresh: 0, reused: 0 }, surprise_cause: source };
}
