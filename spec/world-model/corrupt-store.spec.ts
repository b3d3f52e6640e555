import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProseError } from '../../src/core/errors.ts';
import { fsRun } from './_fs.ts';

const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'resolved';
  } catch (err) {
    return err instanceof ProseError ? err.code : String(err);
  }
};

// Stored state that no longer matches its address, pointer or chain is E_CORRUPT, never silently served.
test('a version file edited on disk, a bad .version and a torn receipt line are E_CORRUPT', async () => {
  const r = await fsRun();
  try {
    const v = await r.call<{ version: string }>('commitWorldModel', {
      node: 'n',
      contract: 'c',
      files: { 'truth.json': '{}' },
    });
    const dir = join(r.runDir, 'state/world-model/n/versions');
    const file = join(dir, readdirSync(dir)[0]!);
    const good = readFileSync(file);
    const bad = Buffer.from(good);
    bad[bad.length - 1] = 0x21;
    writeFileSync(file, bad);
    assert.is(await codeOf(r.call('readPublished', { node: 'n' })), 'E_CORRUPT');
    assert.is(await codeOf(r.call('readVersion', { node: 'n', version: v.version })), 'E_CORRUPT');
    writeFileSync(file, good);
    writeFileSync(join(r.runDir, 'world-model/n/.version'), 'sha256:nope\n');
    assert.is(await codeOf(r.call('readPublished', { node: 'n' })), 'E_CORRUPT');
    writeFileSync(join(r.runDir, 'world-model/n/.version'), `${v.version}\n`);
    writeFileSync(
      join(r.runDir, 'receipts/n.jsonl'),
      readFileSync(join(r.runDir, 'receipts/n.jsonl'), 'utf8').slice(0, -10),
    );
    assert.is(await codeOf(r.call('commitWorldModel', { node: 'n', contract: 'c', files: {} })), 'E_CORRUPT');
    assert.is(await codeOf(r.call('listReceipts', { node: 'n' })), 'E_CORRUPT');
  } finally {
    await r.cleanup();
  }
});

// A commit and readPublished parse only the last receipt of the node's chain (WorldModelContext.lastInRun, issue
// 35): an earlier receipt edited in place does not stop the chain from growing, while every read of the chain
// (listReceipts) still refuses it, and verify names the broken link (wm.chain.prev).
test('a receipt edited earlier in the chain: listReceipts is E_CORRUPT, a commit still chains to the last receipt', async () => {
  const r = await fsRun();
  try {
    const commit = (text: string) =>
      r.call<{ contentHash: string; prev: string | null }>('commitWorldModel', {
        node: 'n',
        contract: 'c',
        files: { 'truth.json': text },
      });
    await commit('{"a":1}');
    const second = await commit('{"a":2}');
    const ledger = join(r.runDir, 'receipts/n.jsonl');
    const [first, last] = readFileSync(ledger, 'utf8').split('\n');
    writeFileSync(ledger, `${first!.replace('"c"', '"x"')}\n${last}\n`);
    assert.is(await codeOf(r.call('listReceipts', { node: 'n' })), 'E_CORRUPT');
    const third = await commit('{"a":3}');
    assert.is(third.prev, second.contentHash);
  } finally {
    await r.cleanup();
  }
});

test.run();
