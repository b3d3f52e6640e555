import { CONTENT_ADDRESS_RE } from './content-address.ts';
import { isPlain, validateReceipt, type ReceiptMode } from './validate-receipt.ts';
import type { ReceiptProblem } from './receipt.ts';

/**
 * The reference `verifyReceiptChain` for ONE node's receipts in ledger order: each must be valid, all share one
 * `node`, the first has `prev: null` and each later `prev` equals its predecessor's `content_hash`.
 * A re-stamped chain (every hash recomputed after an edit) passes: this is tamper evidence, not non-repudiation.
 * `index` in each problem is the position in `chain`; `mode` is validateReceipt's (a checker reads as `reader`).
 */
export function verifyReceiptChain(chain: readonly unknown[], mode: ReceiptMode = 'writer'): ReceiptProblem[] {
  const out: ReceiptProblem[] = [];
  let node: unknown;
  let prevHash: string | null = null;
  chain.forEach((value, index) => {
    const problems = validateReceipt(value, mode);
    for (const p of problems) out.push({ ...p, index });
    const r = isPlain(value) ? value : {};
    if (index === 0) node = r.node;
    else if (r.node !== node)
      out.push({
        rule: 'chain.node',
        field: 'node',
        index,
        message: `node ${JSON.stringify(r.node)} breaks the chain of ${JSON.stringify(node)}`,
      });
    const expected = index === 0 ? null : prevHash;
    if (r.prev !== expected) {
      out.push({
        rule: 'chain.prev',
        field: 'prev',
        index,
        message:
          expected === null
            ? `the first receipt of a node must have prev null, got ${JSON.stringify(r.prev)}`
            : `prev ${JSON.stringify(r.prev)} must equal the previous receipt's content_hash ${expected}`,
      });
    }
    // Like the reference, chain from the stated hash when it is well formed, so one bad hash is reported once.
    prevHash = typeof r.content_hash === 'string' && CONTENT_ADDRESS_RE.test(r.content_hash) ? r.content_hash : null;
  });
  return out;
}

/** Splits a flat ledger (Reactor `receipts.json`) into per-node chains, keeping each receipt's global index. */
export function chainsByNode(receipts: readonly unknown[]): Map<string, { index: number; receipt: unknown }[]> {
  const chains = new Map<string, { index: number; receipt: unknown }[]>();
  receipts.forEach((receipt, index) => {
    const node = isPlain(receipt) && typeof receipt.node === 'string' ? receipt.node : '';
    let list = chains.get(node);
    if (!list) chains.set(node, (list = []));
    list.push({ index, receipt });
  });
  return chains;
}
