import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readReceipts, rules, verify, withCopy, writeReceipts } from './tamper.ts';

// tamper-forge (a): edit a field, keep the stale hash.
test('an edited field with a stale content_hash is reactor.receipt.hash at that receipt', () =>
  withCopy('masked-relay', async (dir) => {
    const list = readReceipts(dir);
    list[5].cost.tokens.reused += 1;
    writeReceipts(dir, list);
    const found = await verify(dir);
    assert.equal(rules(found), ['reactor.receipt.hash']);
    const f = found.find((x) => x.rule === 'reactor.receipt.hash')!;
    assert.is(f.receipt, 5);
    assert.is(f.file, 'receipts.json');
    assert.is(f.node, list[5].node);
  }));

test.run();
