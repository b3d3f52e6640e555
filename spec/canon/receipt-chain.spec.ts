import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  EMPTY_ARTIFACT_ADDRESS,
  nullSignature,
  receiptFor,
  verifyReceiptChain,
  zeroCost,
  type LedgerReceipt,
} from '../../src/canon/index.ts';

const make = (node: string, prev: string | null, n: number): LedgerReceipt =>
  receiptFor({
    node,
    contract_fingerprint: 'c',
    wake: { source: 'external', refs: [] },
    input_fingerprints: [String(n)],
    fingerprints: { '@atomic': EMPTY_ARTIFACT_ADDRESS },
    semantic_diff: {},
    prev: prev as LedgerReceipt['prev'],
    status: 'rendered',
    cost: zeroCost('external'),
    sig: nullSignature(),
  });
const chain = (len: number, node = 'n') => {
  const out: LedgerReceipt[] = [];
  for (let i = 0; i < len; i++) out.push(make(node, i === 0 ? null : out[i - 1]!.content_hash, i));
  return out;
};

test('a well-linked chain has no problems; an empty one neither', () => {
  assert.equal(verifyReceiptChain(chain(4)), []);
  assert.equal(verifyReceiptChain([]), []);
});

test('the first receipt must have prev null', () => {
  const c = chain(2);
  const first = make('n', c[1]!.content_hash, 9);
  assert.equal(
    verifyReceiptChain([first]).map((p) => [p.rule, p.index]),
    [['chain.prev', 0]],
  );
});

test("a later prev that is not its predecessor's hash is chain.prev at that index", () => {
  const c = chain(3);
  c[2] = make('n', c[0]!.content_hash, 2);
  assert.equal(
    verifyReceiptChain(c).map((p) => [p.rule, p.index]),
    [['chain.prev', 2]],
  );
});

test('a receipt of another node breaks the chain', () => {
  const c = chain(2);
  c[1] = make('m', c[0]!.content_hash, 1);
  assert.equal(
    verifyReceiptChain(c).map((p) => p.rule),
    ['chain.node'],
  );
});

test.run();
