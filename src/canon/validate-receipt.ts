import { canonicalJson } from './canonical-json.ts';
import { contentAddressOf, CONTENT_ADDRESS_RE, type ContentAddress } from './content-address.ts';
import {
  ATOMIC_FACET,
  RECEIPT_HASH_ALGORITHM,
  RECEIPT_KEYS,
  RECEIPT_SCHEMA,
  RECEIPT_STATUSES,
  WAKE_SOURCES,
  type ReceiptProblem,
} from './receipt.ts';

type Rec = Record<string, unknown>;

/**
 * `content_hash` of an envelope: sha256 of the canonical JSON of every field except `content_hash`.
 * Undefined fields are refused here, as in the reference hasher.
 */
export function receiptHash(envelope: object): ContentAddress {
  const { content_hash: _ignored, ...payload } = envelope as Rec;
  return contentAddressOf(canonicalJson(payload, { undefinedFields: 'throw' }));
}

/**
 * `writer` (the default) holds a receipt to the reference shape exactly, as a backend under test must write it.
 * `reader` is how a checker reads a ledger a newer runtime may have written (decision receipt-forward-compat): a
 * top-level key outside the shape is `receipt.unknown-key` and a signer other than `none` is
 * `receipt.signer-unverified`, both warnings where the ledger rules are reported; everything else is the same.
 */
export type ReceiptMode = 'writer' | 'reader';

/** Keys the harness spec plans for the durable receipt (spec/02-ReactorHarness.md, "Widen The Durable Receipt"). */
const PLANNED_KEYS = new Set(['as_of', 'reason', 'author', 'addressed_to']);

/**
 * Every rule of the reference `verifyReceipt`, each problem with its rule id and field. An empty list means the
 * receipt is valid and re-hashes to its `content_hash`, which covers every key the receipt holds in either mode.
 */
export function validateReceipt(value: unknown, mode: ReceiptMode = 'writer'): ReceiptProblem[] {
  const out: ReceiptProblem[] = [];
  const add: Add = (rule, field, message) => out.push({ rule, field, message });
  if (!isPlain(value)) {
    add('receipt.object', '$', 'a receipt must be a plain JSON object');
    return out;
  }
  if (mode === 'reader') unknownKeys(value, add);
  checkHeader(value, mode, add);
  checkWake(value.wake, add);
  stringArray(value.input_fingerprints, 'input_fingerprints', add);
  checkFingerprints(value.fingerprints, add);
  if (!isPlain(value.semantic_diff)) add('receipt.field', 'semantic_diff', 'semantic_diff must be an object');
  if (value.prev !== null && !(typeof value.prev === 'string' && CONTENT_ADDRESS_RE.test(value.prev))) {
    add('receipt.field', 'prev', 'prev must be null (cold start) or sha256:<64 lowercase hex>');
  }
  checkSig(value.sig, mode, add);
  const cost = value.cost;
  if (!isPlain(cost)) add('receipt.cost', 'cost', 'cost must be an object');
  else checkCost(cost, add);
  checkAgreement(value, add);
  checkHash(value, add);
  return out;
}

type Add = (rule: string, field: string, message: string) => void;

/** Each top-level key outside the reference shape, named; the ones the harness spec plans say so. */
function unknownKeys(value: Rec, add: Add): void {
  for (const k of Object.keys(value)) {
    if ((RECEIPT_KEYS as readonly string[]).includes(k)) continue;
    const planned = PLANNED_KEYS.has(k) ? ', planned by the harness spec (spec/02-ReactorHarness.md)' : '';
    add(
      'receipt.unknown-key',
      k,
      `key "${k}" is not in the reference receipt${planned}; hashed and chained as written`,
    );
  }
}

/** The keys, the schema and hash algorithm, the node, the contract and the status. */
function checkHeader(value: Rec, mode: ReceiptMode, add: Add): void {
  if (mode === 'writer') exactKeys(value, '', RECEIPT_KEYS, 'receipt.keys', add);
  else missingKeys(value, '', RECEIPT_KEYS, 'receipt.keys', add);
  if (value.schema !== RECEIPT_SCHEMA) add('receipt.schema', 'schema', `schema must be "${RECEIPT_SCHEMA}"`);
  if (value.hash_algorithm !== RECEIPT_HASH_ALGORITHM)
    add('receipt.schema', 'hash_algorithm', `hash_algorithm must be "${RECEIPT_HASH_ALGORITHM}"`);
  nonEmpty(value, 'node', 'receipt.field', add);
  nonEmpty(value, 'contract_fingerprint', 'receipt.field', add);
  if (!oneOf(value.status, RECEIPT_STATUSES))
    add('receipt.field', 'status', `status must be one of ${RECEIPT_STATUSES.join(', ')}`);
}

function checkWake(wake: unknown, add: Add): void {
  if (!isPlain(wake)) {
    add('receipt.wake', 'wake', 'wake must be an object');
    return;
  }
  exactKeys(wake, 'wake.', ['source', 'refs'], 'receipt.wake', add);
  if (!oneOf(wake.source, WAKE_SOURCES))
    add('receipt.wake', 'wake.source', `wake.source must be one of ${WAKE_SOURCES.join(', ')}`);
  addressArray(wake.refs, 'wake.refs', add);
}

function checkFingerprints(fps: unknown, add: Add): void {
  if (!isPlain(fps)) {
    add('receipt.fingerprints', 'fingerprints', 'fingerprints must be an object');
    return;
  }
  if (!Object.hasOwn(fps, ATOMIC_FACET))
    add('receipt.fingerprints', 'fingerprints', `fingerprints must include "${ATOMIC_FACET}"`);
  for (const [k, v] of Object.entries(fps)) {
    if (typeof v !== 'string' || v.length === 0)
      add('receipt.fingerprints', `fingerprints.${k}`, 'a fingerprint token must be a non-empty string');
  }
}

/** The rules across fields: the surprise's cause is the wake's source; a skipped receipt changed and spent nothing. */
function checkAgreement(value: Rec, add: Add): void {
  const { wake, cost } = value;
  if (
    isPlain(wake) &&
    isPlain(cost) &&
    typeof wake.source === 'string' &&
    typeof cost.surprise_cause === 'string' &&
    wake.source !== cost.surprise_cause
  ) {
    add(
      'receipt.surprise-cause',
      'cost.surprise_cause',
      `cost.surprise_cause "${cost.surprise_cause}" must equal wake.source "${wake.source}"`,
    );
  }
  if (value.status === 'skipped') {
    if (isPlain(value.semantic_diff) && Object.keys(value.semantic_diff).length > 0)
      add('receipt.skipped', 'semantic_diff', 'a skipped receipt carries the empty semantic_diff');
    const tokens = isPlain(cost) ? cost.tokens : undefined;
    if (isPlain(tokens) && typeof tokens.fresh === 'number' && tokens.fresh !== 0)
      add('receipt.skipped', 'cost.tokens.fresh', 'a skipped receipt carries zero fresh tokens');
  }
}

function checkHash(value: Rec, add: Add): void {
  const actual = value.content_hash;
  if (typeof actual !== 'string' || !CONTENT_ADDRESS_RE.test(actual)) {
    add('receipt.hash', 'content_hash', 'content_hash must be sha256:<64 lowercase hex>');
    return;
  }
  let expected: string;
  try {
    expected = receiptHash(value);
  } catch (err) {
    add('receipt.hash', 'content_hash', `the envelope has no canonical JSON: ${(err as Error).message}`);
    return;
  }
  if (expected !== actual)
    add('receipt.hash', 'content_hash', `content_hash ${actual} does not match the canonical envelope (${expected})`);
}

function checkSig(sig: unknown, mode: ReceiptMode, add: Add): void {
  if (!isPlain(sig)) return void add('receipt.sig', 'sig', 'sig must be an object');
  if (mode === 'reader' && sig.scheme !== 'none' && typeof sig.scheme === 'string' && sig.scheme !== '')
    return void add(
      'receipt.signer-unverified',
      'sig.scheme',
      `sig.scheme ${JSON.stringify(sig.scheme)} is a signer this checker cannot verify: present, not verified`,
    );
  if (sig.scheme !== 'none')
    return void add(
      'receipt.sig',
      'sig.scheme',
      `sig.scheme must be "none" (got ${JSON.stringify(sig.scheme)}); the null signer is the only v1 state`,
    );
  exactKeys(sig, 'sig.', ['scheme', 'null_reason'], 'receipt.sig', add);
  nonEmpty(sig, 'null_reason', 'receipt.sig', add, 'sig.');
}

function checkCost(cost: Rec, add: Add): void {
  nonEmpty(cost, 'provider', 'receipt.cost', add, 'cost.');
  nonEmpty(cost, 'model', 'receipt.cost', add, 'cost.');
  if (!oneOf(cost.surprise_cause, WAKE_SOURCES))
    add('receipt.cost', 'cost.surprise_cause', `cost.surprise_cause must be one of ${WAKE_SOURCES.join(', ')}`);
  const tokens = cost.tokens;
  if (!isPlain(tokens)) return void add('receipt.cost', 'cost.tokens', 'cost.tokens must be an object');
  for (const k of ['fresh', 'reused']) {
    const n = tokens[k];
    if (!Number.isSafeInteger(n) || (n as number) < 0)
      add('receipt.cost', `cost.tokens.${k}`, `cost.tokens.${k} must be a non-negative safe integer`);
  }
}

function exactKeys(rec: Rec, prefix: string, allowed: readonly string[], rule: string, add: Add): void {
  for (const k of Object.keys(rec))
    if (!allowed.includes(k)) add(rule, `${prefix}${k}`, `key "${prefix}${k}" is not in the receipt shape`);
  missingKeys(rec, prefix, allowed, rule, add);
}

function missingKeys(rec: Rec, prefix: string, allowed: readonly string[], rule: string, add: Add): void {
  for (const k of allowed) if (!Object.hasOwn(rec, k)) add(rule, `${prefix}${k}`, `key "${prefix}${k}" is missing`);
}

function nonEmpty(rec: Rec, key: string, rule: string, add: Add, prefix = ''): void {
  const v = rec[key];
  if (typeof v !== 'string' || v.length === 0)
    add(rule, `${prefix}${key}`, `${prefix}${key} must be a non-empty string`);
}

function stringArray(v: unknown, field: string, add: Add): void {
  if (!Array.isArray(v)) return void add('receipt.field', field, `${field} must be an array of fingerprint tokens`);
  v.forEach((item, i) => {
    if (typeof item !== 'string' || item.length === 0)
      add('receipt.field', `${field}[${i}]`, 'a fingerprint token must be a non-empty string');
  });
}

function addressArray(v: unknown, field: string, add: Add): void {
  if (!Array.isArray(v)) return void add('receipt.wake', field, `${field} must be an array of content addresses`);
  v.forEach((item, i) => {
    if (typeof item !== 'string' || !CONTENT_ADDRESS_RE.test(item))
      add('receipt.wake', `${field}[${i}]`, 'must be sha256:<64 lowercase hex>');
  });
}

function oneOf<T extends string>(v: unknown, allowed: readonly T[]): v is T {
  return typeof v === 'string' && (allowed as readonly string[]).includes(v);
}

export function isPlain(v: unknown): v is Rec {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const p: unknown = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
}
