import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  EMPTY_ARTIFACT_ADDRESS,
  nullSignature,
  receiptFor,
  receiptHash,
  validateReceipt,
  zeroCost,
  type LedgerReceipt,
} from '../../src/canon/index.ts';
import { throwsCode } from './vectors.ts';

const base = (): LedgerReceipt =>
  receiptFor({
    node: 'n',
    contract_fingerprint: 'contract:x@ingress',
    wake: { source: 'input', refs: [] },
    input_fingerprints: ['inbox:1'],
    fingerprints: { '@atomic': EMPTY_ARTIFACT_ADDRESS, facet: 'opaque-token' },
    semantic_diff: {},
    prev: null,
    status: 'rendered',
    cost: zeroCost('input'),
    sig: nullSignature(),
  });
/** Edits a valid receipt and re-stamps its hash, so only the edited rule can fire. */
const edit = (f: (r: Record<string, any>) => void): string[] => {
  const r = structuredClone(base()) as Record<string, any>;
  f(r);
  r.content_hash = receiptHash(r);
  return [...new Set(validateReceipt(r).map((p) => p.rule))];
};

test('opaque tokens (inbox:1, contract:...@ingress) are valid', () => assert.equal(validateReceipt(base()), []));
test('an extra top-level key is receipt.keys', () =>
  assert.equal(
    edit((r) => (r.version = 'x')),
    ['receipt.keys'],
  ));
test('a missing key is receipt.keys', () => assert.ok(edit((r) => delete r.semantic_diff).includes('receipt.keys')));
test('extra keys inside cost are allowed', () =>
  assert.equal(
    edit((r) => (r.cost.usd = 0.01)),
    [],
  ));
test('an extra key in wake is receipt.wake', () =>
  assert.equal(
    edit((r) => (r.wake.extra = 1)),
    ['receipt.wake'],
  ));
test('sig must be exactly {scheme:none, null_reason}', () => {
  assert.equal(
    edit((r) => (r.sig = { scheme: 'ed25519', sig: 'x' })),
    ['receipt.sig'],
  );
  assert.equal(
    edit((r) => (r.sig.null_reason = '')),
    ['receipt.sig'],
  );
  assert.equal(
    edit((r) => (r.sig.key = 'k')),
    ['receipt.sig'],
  );
});
test('surprise_cause must equal wake.source', () =>
  assert.equal(
    edit((r) => (r.cost.surprise_cause = 'self')),
    ['receipt.surprise-cause'],
  ));
test('a skipped receipt needs an empty diff and zero fresh tokens', () => {
  assert.equal(
    edit((r) => {
      r.status = 'skipped';
      r.semantic_diff = { x: 1 };
    }),
    ['receipt.skipped'],
  );
  assert.equal(
    edit((r) => {
      r.status = 'skipped';
      r.cost.tokens.fresh = 3;
    }),
    ['receipt.skipped'],
  );
  assert.equal(
    edit((r) => {
      r.status = 'skipped';
    }),
    [],
  );
});
test('a failed receipt may carry failure_reason in semantic_diff', () =>
  assert.equal(
    edit((r) => {
      r.status = 'failed';
      r.semantic_diff = { failure_reason: 'boom' };
    }),
    [],
  ));
test('fingerprints need @atomic and non-empty tokens', () => {
  assert.equal(
    edit((r) => delete r.fingerprints['@atomic']),
    ['receipt.fingerprints'],
  );
  assert.equal(
    edit((r) => (r.fingerprints.facet = '')),
    ['receipt.fingerprints'],
  );
});
test('prev and wake.refs must be sha256 addresses, tokens need not', () => {
  assert.equal(
    edit((r) => (r.prev = 'sha256:ABC')),
    ['receipt.field'],
  );
  assert.equal(
    edit((r) => (r.wake.refs = ['inbox:1'])),
    ['receipt.wake'],
  );
});
test('negative or fractional tokens are receipt.cost', () => {
  assert.equal(
    edit((r) => (r.cost.tokens.reused = -1)),
    ['receipt.cost'],
  );
  assert.equal(
    edit((r) => (r.cost.tokens.fresh = 1.5)),
    ['receipt.cost'],
  );
});
test('a stale content_hash is receipt.hash', () => {
  const r = { ...base(), node: 'm' };
  assert.equal(
    validateReceipt(r).map((p) => p.rule),
    ['receipt.hash'],
  );
});
test('receiptFor refuses an invalid body with E_FORMAT naming the field', () => {
  const e = throwsCode(() => receiptFor({ ...base(), node: '' }), 'E_FORMAT');
  assert.is(e.location?.field, 'node');
});

test.run();
