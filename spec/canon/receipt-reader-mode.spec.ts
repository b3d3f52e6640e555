import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  EMPTY_ARTIFACT_ADDRESS,
  nullSignature,
  receiptFor,
  receiptHash,
  validateReceipt,
  verifyReceiptChain,
  zeroCost,
  type ReceiptMode,
} from '../../src/canon/index.ts';

// Decision receipt-forward-compat: a checker reads a newer runtime's receipt (a key the harness spec plans, a real
// signer) as a warning of its own, still hashed and chained; a writer is held to the exact reference shape.
type Rec = Record<string, any>;

const receipt = (prev: string | null = null): Rec =>
  structuredClone(
    receiptFor({
      node: 'n',
      contract_fingerprint: 'contract:x',
      wake: { source: 'input', refs: [] },
      input_fingerprints: [],
      fingerprints: { '@atomic': EMPTY_ARTIFACT_ADDRESS },
      semantic_diff: {},
      prev: prev as null,
      status: 'rendered',
      cost: zeroCost('input'),
      sig: nullSignature(),
    }),
  ) as Rec;

/** `r` after `f`, re-stamped, as [rule field] pairs in `mode`. */
function problems(mode: ReceiptMode, f: (r: Rec) => void, restamp = true): string[] {
  const r = receipt();
  f(r);
  if (restamp) r.content_hash = receiptHash(r);
  return validateReceipt(r, mode).map((p) => `${p.rule} ${p.field}`);
}

test('receipt-forward-compat: a planned key (as_of, reason, author, addressed_to) is receipt.unknown-key naming it and the harness spec', () => {
  for (const key of ['as_of', 'reason', 'author', 'addressed_to']) {
    const r = receipt();
    r[key] = 'x';
    r.content_hash = receiptHash(r);
    const found = validateReceipt(r, 'reader');
    assert.equal(
      found.map((p) => `${p.rule} ${p.field}`),
      [`receipt.unknown-key ${key}`],
    );
    assert.match(found[0]!.message, `"${key}"`);
    assert.match(found[0]!.message, 'planned by the harness spec');
  }
});

test('receipt-forward-compat: any other unknown key is named without the harness note', () => {
  const r = receipt();
  r.vendor_trace = 1;
  r.content_hash = receiptHash(r);
  const [p, ...rest] = validateReceipt(r, 'reader');
  assert.equal(rest, []);
  assert.is(p!.rule, 'receipt.unknown-key');
  assert.match(p!.message, '"vendor_trace"');
  assert.not.match(p!.message, 'harness');
});

test('receipt-forward-compat: the writer mode (the default) keeps the exact key set', () => {
  assert.equal(
    problems('writer', (r) => (r.as_of = '2026-07-01T00:00:00Z')),
    ['receipt.keys as_of'],
  );
  const r = receipt();
  r.as_of = 'x';
  r.content_hash = receiptHash(r);
  assert.equal(
    validateReceipt(r).map((p) => p.rule),
    ['receipt.keys'],
  );
});

test('receipt-forward-compat: the unknown key is hashed: a stale content_hash is still receipt.hash', () => {
  assert.equal(
    problems('reader', (r) => (r.as_of = 'x'), false),
    ['receipt.unknown-key as_of', 'receipt.hash content_hash'],
  );
});

test('receipt-forward-compat: a signer other than none is receipt.signer-unverified (writer: receipt.sig)', () => {
  const sig = (r: Rec) => (r.sig = { scheme: 'ed25519', key_id: 'k1', signature: 'abc' });
  assert.equal(problems('reader', sig), ['receipt.signer-unverified sig.scheme']);
  assert.equal(problems('writer', sig), ['receipt.sig sig.scheme']);
});

test('receipt-forward-compat: a known key with a bad value and a missing key stay errors in the reader', () => {
  assert.equal(
    problems('reader', (r) => delete r.cost),
    ['receipt.keys cost', 'receipt.cost cost'],
  );
  assert.equal(
    problems('reader', (r) => (r.wake.at = 'x')),
    ['receipt.wake wake.at'],
  );
  assert.equal(
    problems('reader', (r) => delete r.sig.scheme),
    ['receipt.sig sig.scheme'],
  );
  assert.equal(
    problems('reader', (r) => (r.sig = { scheme: '' })),
    ['receipt.sig sig.scheme'],
  );
  assert.equal(
    problems('reader', (r) => (r.sig.extra = 1)),
    ['receipt.sig sig.extra'],
  );
  assert.equal(
    problems('reader', (r) => (r.status = 'deferred')),
    ['receipt.field status'],
  );
});

test('receipt-forward-compat: a newer receipt is chain-checked: prev must be the stated hash of its predecessor', () => {
  const first = receipt();
  first.as_of = '2026-07-01T00:00:00Z';
  first.content_hash = receiptHash(first);
  const second = receipt(first.content_hash);
  second.sig = { scheme: 'ed25519', signature: 'abc' };
  second.content_hash = receiptHash(second);
  const rules = (chain: Rec[]) => verifyReceiptChain(chain, 'reader').map((p) => `${p.rule} ${p.index}`);
  assert.equal(rules([first, second]), ['receipt.unknown-key 0', 'receipt.signer-unverified 1']);
  const broken: Rec = { ...second, prev: receiptHash({ ...first, as_of: 'y' }) };
  broken.content_hash = receiptHash(broken);
  assert.equal(rules([first, broken]), ['receipt.unknown-key 0', 'receipt.signer-unverified 1', 'chain.prev 1']);
  assert.equal(
    verifyReceiptChain([first, second]).map((p) => p.rule),
    ['receipt.keys', 'receipt.sig'],
  );
});

test.run();
