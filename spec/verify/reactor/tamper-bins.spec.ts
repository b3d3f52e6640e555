import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { binsOf, readReceipts, rules, verify, withCopy } from './tamper.ts';

const firstBin = (dir: string) => binsOf(dir, readReceipts(dir)[0].node)[0]!;

test('a truncated .bin is reactor.bin-parse naming the file', () =>
  withCopy('monorepo-ci', async (dir) => {
    const bin = firstBin(dir);
    const bytes = readFileSync(bin);
    writeFileSync(bin, bytes.subarray(0, bytes.length - 3));
    const found = await verify(dir);
    const f = found.find((x) => x.rule === 'reactor.bin-parse');
    assert.ok(f && bin.endsWith(f.file!), JSON.stringify(found));
    assert.ok(f!.message.includes('truncated'));
  }));

test('trailing bytes after the last file are reactor.bin-parse', () =>
  withCopy('monorepo-ci', async (dir) => {
    const bin = firstBin(dir);
    writeFileSync(bin, Buffer.concat([readFileSync(bin), Buffer.from('\n')]));
    const found = await verify(dir);
    const f = found.find((x) => x.rule === 'reactor.bin-parse');
    assert.ok(f && f.message.includes('trailing'));
  }));

test('a .bin renamed to another address is reactor.bin-hash', () =>
  withCopy('monorepo-ci', async (dir) => {
    const bin = firstBin(dir);
    renameSync(bin, join(dirname(bin), `sha256_${'a'.repeat(64)}.bin`));
    assert.ok(rules(await verify(dir)).includes('reactor.bin-hash'));
  }));

test('a .bin with a name that is not an address is reactor.bin-name', () =>
  withCopy('monorepo-ci', async (dir) => {
    const bin = firstBin(dir);
    renameSync(bin, join(dirname(bin), 'backup.bin'));
    assert.ok(rules(await verify(dir)).includes('reactor.bin-name'));
  }));

test.run();
