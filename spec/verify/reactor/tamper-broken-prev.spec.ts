import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lastOfBusiestNode, readReceipts, restamp, rules, verify, withCopy, writeReceipts } from './tamper.ts';

test('a prev pointing elsewhere (hash re-stamped) is reactor.chain.prev, not a hash error', () =>
  withCopy('inbox-triage', async (dir) => {
    const list = readReceipts(dir);
    const i = lastOfBusiestNode(list);
    list[i].prev = list[0].content_hash;
    restamp(list[i]);
    writeReceipts(dir, list);
    const found = await verify(dir);
    assert.equal(rules(found), ['reactor.chain.prev']);
    assert.is(found[0]!.receipt, i);
  }));

test('a first receipt whose prev is not null is reactor.chain.prev', () =>
  withCopy('surprise-cost', async (dir) => {
    const list = readReceipts(dir);
    const first = list.findIndex((r) => r.prev === null && list.filter((x) => x.node === r.node).length === 1);
    const i = first >= 0 ? first : 0;
    list[i].prev = list[list.length - 1].content_hash;
    restamp(list[i]);
    writeReceipts(dir, list);
    assert.ok(rules(await verify(dir)).includes('reactor.chain.prev'));
  }));

test.run();
