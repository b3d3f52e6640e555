import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lastOfBusiestNode, readReceipts, restamp, rules, verify, withCopy, writeReceipts } from './tamper.ts';

// tamper-forge (c): a signature scheme other than "none" is rejected even with a consistent hash.
test('sig.scheme other than "none" is reactor.receipt.sig', () =>
  withCopy('news-desk', async (dir) => {
    const list = readReceipts(dir);
    const i = lastOfBusiestNode(list);
    list[i].sig = { scheme: 'ed25519', null_reason: 'x' };
    restamp(list[i]);
    writeReceipts(dir, list);
    assert.equal(rules(await verify(dir)), ['reactor.receipt.sig']);
  }));

test.run();
