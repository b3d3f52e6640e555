import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lastOfBusiestNode, readReceipts, restamp, rules, verify, withCopy, writeReceipts } from './tamper.ts';

test('an extra envelope key is reactor.receipt.keys; an extra key in cost is allowed', () =>
  withCopy('research-tree', async (dir) => {
    const list = readReceipts(dir);
    const i = lastOfBusiestNode(list);
    list[i].version = list[i].fingerprints['@atomic'];
    restamp(list[i]);
    writeReceipts(dir, list);
    assert.equal(rules(await verify(dir)), ['reactor.receipt.keys']);
    delete list[i].version;
    list[i].cost.usd = 0.5;
    restamp(list[i]);
    writeReceipts(dir, list);
    assert.equal(rules(await verify(dir)), []);
  }));

test.run();
