import { ProseError } from '../core/errors.ts';
import { canonicalJson } from './canonical-json.ts';
import { RECEIPT_HASH_ALGORITHM, RECEIPT_SCHEMA, type LedgerReceipt, type ReceiptBody } from './receipt.ts';
import { receiptHash, validateReceipt } from './validate-receipt.ts';

/**
 * Stamps a receipt body into a ledger envelope (schema, hash_algorithm, content_hash), as the reference
 * `createReceipt` does, and refuses (E_FORMAT, naming the field) a body the verifier would reject.
 */
export function receiptFor(body: ReceiptBody): LedgerReceipt {
  const payload = {
    schema: RECEIPT_SCHEMA,
    hash_algorithm: RECEIPT_HASH_ALGORITHM,
    node: body.node,
    contract_fingerprint: body.contract_fingerprint,
    wake: body.wake,
    input_fingerprints: body.input_fingerprints,
    fingerprints: body.fingerprints,
    semantic_diff: body.semantic_diff,
    prev: body.prev,
    status: body.status,
    cost: body.cost,
    sig: body.sig,
  } as const;
  const receipt = { ...payload, content_hash: receiptHash(payload) } as LedgerReceipt;
  const problems = validateReceipt(receipt);
  if (problems.length > 0) {
    const first = problems[0]!;
    throw new ProseError('E_FORMAT', `invalid receipt: ${problems.map((p) => p.message).join('; ')}`, {
      location: { field: first.field },
      hint: `rule ${first.rule}`,
    });
  }
  return receipt;
}

/** A ledger file line or `receipts.json` entry: the envelope as canonical JSON. */
export function serializeReceipt(receipt: LedgerReceipt): string {
  return canonicalJson(receipt, { undefinedFields: 'throw' });
}
