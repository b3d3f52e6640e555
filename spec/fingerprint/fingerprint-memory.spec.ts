import { execFileSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const CHILD = fileURLToPath(new URL('./memory-child.ts', import.meta.url));
const FILES = 16;
const SIZE = 64 * 1024 * 1024; // 16 x 64 MiB = 1 GiB, sparse so the tree costs no disk and no time to make
const LIMIT_KIB = 64 * 1024;

const run = (mode: string, dir: string) =>
  JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', CHILD, mode, dir], { encoding: 'utf8', maxBuffer: 1 << 20 }),
  ) as { maxRSS: number; files: number; bytes: number; address: string };

// Streaming claim: one reused buffer, no concatenation. A whole-artifact buffer would cost 1 GiB here.
test('fingerprinting a 1 GiB tree (sync and async) stays within 64 MiB of a baseline process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'canon-mem-'));
  try {
    mkdirSync(join(dir, 'tree/deep'), { recursive: true });
    for (let i = 0; i < FILES; i++) {
      const fd = openSync(join(dir, i % 2 ? 'tree/deep' : 'tree', `f${String(i).padStart(2, '0')}.bin`), 'w');
      ftruncateSync(fd, SIZE);
      closeSync(fd);
    }
    const base = run('baseline', CHILD);
    const addresses = new Set<string>();
    for (const mode of ['measure', 'measure-async']) {
      const big = run(mode, join(dir, 'tree'));
      assert.is(big.files, FILES);
      const pathBytes = 7 * (FILES / 2) + 12 * (FILES / 2); // "f00.bin" (7 bytes) and "deep/f01.bin" (12)
      assert.is(big.bytes, 9 + FILES * 8 + pathBytes + FILES * SIZE);
      addresses.add(big.address);
      const deltaKiB = big.maxRSS - base.maxRSS;
      // Reported so the figure is visible in the run log.
      console.log(
        `    peak RSS (${mode}): baseline ${(base.maxRSS / 1024).toFixed(1)} MiB, 1 GiB fingerprint ${(big.maxRSS / 1024).toFixed(1)} MiB, delta ${(deltaKiB / 1024).toFixed(1)} MiB`,
      );
      assert.ok(deltaKiB < LIMIT_KIB, `${mode}: peak RSS grew by ${deltaKiB} KiB`);
    }
    assert.is(addresses.size, 1, 'sync and async fingerprints agree');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
