import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { verifyReceiptChain } from '../../src/canon/index.ts';
import { fsRun } from './_fs.ts';

// Calls on one (run, node) are serialized, so concurrent commits never fork a chain.
test('twenty concurrent commits and failures on one node form one unbroken chain', async () => {
  const r = await fsRun();
  try {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 5 === 4
          ? r.call('failRender', { node: 'n', contract: 'c', reason: `r${i}` })
          : r.call('commitWorldModel', { node: 'n', contract: 'c', files: { 'truth.json': `{"i":${i % 3}}` } }),
      ),
    );
    const { receipts } = await r.call<{ receipts: unknown[] }>('listReceipts', { node: 'n' });
    assert.is(receipts.length, 20);
    assert.equal(verifyReceiptChain(receipts), []);
  } finally {
    await r.cleanup();
  }
});

test.run();
