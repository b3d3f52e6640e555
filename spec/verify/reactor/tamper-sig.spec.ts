import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lastOfBusiestNode, readReceipts, restamp, rules, verify, withCopy, writeReceipts } from './tamper.ts';

// tamper-forge (c): a signature scheme other than "none" with a consistent hash is reported, not trusted: a signer
// this checker cannot verify is a warning of its own (decision receipt-forward-compat); a sig without a scheme is
// still an error.
test('sig.scheme other than "none" is reactor.receipt.signer-unverified, a warning; a sig without a scheme is reactor.receipt.sig', () =>
  withCopy('news-desk', async (dir) => {
    const list = readReceipts(dir);
    const i = lastOfBusiestNode(list);
    list[i].sig = { scheme: 'ed25519', null_reason: 'x' };
    restamp(list[i]);
    writeReceipts(dir, list);
    const found = await verify(dir);
    assert.equal(
      found.map((f) => `${f.rule} ${f.severity}`),
      ['reactor.receipt.signer-unverified warning'],
    );
    assert.match(found[0]!.message, '"ed25519"');
    list[i].sig = { null_reason: 'x' };
    restamp(list[i]);
    writeReceipts(dir, list);
    assert.equal(rules(await verify(dir)), ['reactor.receipt.sig']);
  }));

test.run();
