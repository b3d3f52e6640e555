import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readReceipts, restamp, rules, verify, withCopy, writeReceipts } from './tamper.ts';

// tamper-forge (b): edit a receipt and re-stamp the node's chain forward. Every hash and link is consistent again,
// so it passes: the chain is tamper evidence against a careless edit, not non-repudiation (there is no signature).
test('an edit re-stamped forward through the chain passes every check', () =>
  withCopy('masked-relay', async (dir) => {
    const list = readReceipts(dir);
    const node = list[5].node;
    list[5].cost.tokens.reused += 1;
    let prev: string | undefined;
    for (const r of list) {
      if (r.node !== node) continue;
      if (prev !== undefined) r.prev = prev;
      restamp(r);
      prev = r.content_hash;
    }
    writeReceipts(dir, list);
    assert.equal(rules(await verify(dir)), []);
  }));

test.run();
