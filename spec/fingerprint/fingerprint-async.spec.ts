import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commit } from '../../src/canon/index.ts';
import { ASYNC_FROM_BYTES, fingerprintDirectory, fingerprintDirectoryAsync } from '../../src/fingerprint/index.ts';

/** Deterministic bytes, so no two files are equal and a misplaced chunk changes the address. */
const bytes = (n: number, seed: number): Uint8Array => {
  const out = new Uint8Array(n);
  let x = seed | 1;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
};

// Sizes around the async threshold and the buffer sizes below, so every branch of the double-buffered stream
// (probe ends the file, tail packed behind, exact multiple of the buffer, header alone) is crossed.
const SIZES = [
  0,
  1,
  63,
  64,
  4095,
  ASYNC_FROM_BYTES - 1,
  ASYNC_FROM_BYTES,
  ASYNC_FROM_BYTES + 1,
  100_000,
  262_147,
  1 << 20,
  (1 << 20) + 1,
  3 * (1 << 20) + 17,
];
const BUFFERS = [7, 64, 100, 4096, ASYNC_FROM_BYTES, ASYNC_FROM_BYTES + 64, 100_000, 1 << 20, 4 << 20];

test('the async fingerprint is byte-identical to the sync one and to commit(), whatever the buffer size', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'canon-fp-async-'));
  try {
    const files: Record<string, Uint8Array> = {};
    SIZES.forEach((n, k) => {
      // Long names too: with the smallest buffers a frame header does not fit and stands alone.
      const path = `${k % 2 ? 'sub/' : ''}f${k}-${'x'.repeat(k * 7)}.bin`;
      files[path] = bytes(n, k + 1);
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), files[path]!);
    });
    const want = commit(files);
    for (const bufferBytes of BUFFERS) {
      const sync = fingerprintDirectory(dir, { bufferBytes });
      const async = await fingerprintDirectoryAsync(dir, { bufferBytes });
      assert.is(sync.address, want.address, `sync, buffer ${bufferBytes}`);
      assert.is(async.address, want.address, `async, buffer ${bufferBytes}`);
      assert.equal([async.files, async.bytes], [SIZES.length, want.bytes.length], `buffer ${bufferBytes}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the async fingerprint of a single large file is the artifact holding it under its base name', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'canon-fp-async-'));
  try {
    const content = bytes(3 * ASYNC_FROM_BYTES + 5, 9);
    writeFileSync(join(dir, 'big.bin'), content);
    assert.is((await fingerprintDirectoryAsync(join(dir, 'big.bin'))).address, commit({ 'big.bin': content }).address);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
