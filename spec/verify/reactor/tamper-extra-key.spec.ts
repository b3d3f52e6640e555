import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lastOfBusiestNode, readReceipts, restamp, rules, verify, withCopy, writeReceipts } from './tamper.ts';

// An extra envelope key is what a newer runtime writes (decision receipt-forward-compat): a warning naming it, the
// receipt still hashed over it; a missing key is still reactor.receipt.keys.
test('an extra envelope key is reactor.receipt.unknown-key (a warning); an extra key in cost is allowed; a missing key is reactor.receipt.keys', () =>
  withCopy('research-tree', async (dir) => {
    const list = readReceipts(dir);
    const i = lastOfBusiestNode(list);
    list[i].version = list[i].fingerprints['@atomic'];
    restamp(list[i]);
    writeReceipts(dir, list);
    const found = await verify(dir);
    assert.equal(
      found.map((f) => `${f.rule} ${f.severity}`),
      ['reactor.receipt.unknown-key warning'],
    );
    assert.match(found[0]!.message, '"version"');
    list[i].version = 'edited after stamping';
    writeReceipts(dir, list);
    assert.equal(rules(await verify(dir)), ['reactor.receipt.hash']);
    delete list[i].version;
    list[i].cost.usd = 0.5;
    restamp(list[i]);
    writeReceipts(dir, list);
    assert.equal(await verify(dir), []);
    delete list[i].semantic_diff;
    restamp(list[i]);
    writeReceipts(dir, list);
    assert.equal(rules(await verify(dir)), ['reactor.receipt.field', 'reactor.receipt.keys']);
  }));

test.run();
