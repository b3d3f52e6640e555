import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  EMPTY_ARTIFACT_ADDRESS,
  nullSignature,
  receiptFor,
  receiptHash,
  validateReceipt,
  zeroCost,
} from '../../src/canon/index.ts';

// Facts 3.2: node n, contract c, external wake, empty inputs, the empty-artifact @atomic, null signature, zero cost
// with provider and model "none". Reconstructed field by field; the hash is the notes', not ours.
test('the minimal rendered receipt hashes to sha256:75a3de59...', () => {
  const r = receiptFor({
    node: 'n',
    contract_fingerprint: 'c',
    wake: { source: 'external', refs: [] },
    input_fingerprints: [],
    fingerprints: { '@atomic': EMPTY_ARTIFACT_ADDRESS },
    semantic_diff: {},
    prev: null,
    status: 'rendered',
    cost: zeroCost('external'),
    sig: nullSignature(),
  });
  assert.is(r.content_hash, 'sha256:75a3de595cae31bc970825584741adf49164d519ce6578f4ef4c1fcecbb8f60a');
  assert.is(r.sig.null_reason, 'no-signer-adapter-configured');
  assert.equal(validateReceipt(r), []);
  assert.is(receiptHash(r), r.content_hash);
  assert.is(receiptHash({ ...r, content_hash: 'ignored' }), r.content_hash);
});

test.run();
