import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  canonicalJson,
  chainsByNode,
  receiptFor,
  serializeReceipt,
  validateReceipt,
  verifyReceiptChain,
  type LedgerReceipt,
} from '../../src/canon/index.ts';
import { REACTOR_DIR, reactorDirs } from './vectors.ts';

const ledgers = () =>
  reactorDirs().map((d) => ({ d, text: readFileSync(join(REACTOR_DIR, d, 'receipts.json'), 'utf8') }));

test('every receipts.json is byte-identical to canonicalJson(array) plus one LF', () => {
  for (const { d, text } of ledgers()) assert.ok(canonicalJson(JSON.parse(text)) + '\n' === text, d);
});

test('every receipt validates, and receiptFor re-stamps the same content_hash', () => {
  let n = 0;
  for (const { d, text } of ledgers()) {
    for (const r of JSON.parse(text) as LedgerReceipt[]) {
      assert.equal(validateReceipt(r), [], `${d} ${r.content_hash}`);
      const { schema: _s, hash_algorithm: _h, content_hash, ...body } = r;
      assert.is(receiptFor(body).content_hash, content_hash);
      assert.is(serializeReceipt(r), canonicalJson(r));
      n++;
    }
  }
  assert.is(n, 643);
});

test('every node chain is unbroken', () => {
  for (const { d, text } of ledgers()) {
    for (const [node, chain] of chainsByNode(JSON.parse(text)))
      assert.equal(verifyReceiptChain(chain.map((c) => c.receipt)), [], `${d} ${node}`);
  }
});

test.run();
