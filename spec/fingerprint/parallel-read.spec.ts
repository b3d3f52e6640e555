import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commit, parseArtifact, serializeArtifact } from '../../src/canon/index.ts';
import {
  artifactChunksParallel,
  closeReaderThreads,
  fsTreeReader,
  planTree,
  fingerprintDirectory,
  fingerprintDirectoryAsync,
  serializeDirectoryTo,
  type ParallelOptions,
} from '../../src/fingerprint/index.ts';
import { allBins } from '../canon/vectors.ts';

/** A seeded generator, so a failing tree can be made again from its seed. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
}

const SLOT = 4096;

/**
 * A random tree: nested names (some long, some non-ASCII, so byte order differs from insertion order), sizes from
 * empty to several slots (a file that does not fit its slot goes down the hashing thread's checked path).
 */
function randomTree(seed: number): Record<string, Uint8Array> {
  const r = rng(seed);
  const files: Record<string, Uint8Array> = {};
  const count = 1 + Math.floor(r() * 90);
  const sizes = [0, 1, 7, 100, SLOT - 40, SLOT, SLOT + 1, 3 * SLOT + 5, 70_000];
  for (let i = 0; i < count; i++) {
    const dir = ['', 'a/', 'b/c/', 'é/', 'Z/'][Math.floor(r() * 5)]!;
    const name = `${dir}f${Math.floor(r() * 1e6)}${r() < 0.1 ? 'x'.repeat(200) : ''}${r() < 0.2 ? 'ü' : ''}${r() < 0.1 ? '𝄞' : ''}.bin`;
    const size = r() < 0.7 ? Math.floor(r() * 300) : sizes[Math.floor(r() * sizes.length)]!;
    const bytes = new Uint8Array(size);
    for (let k = 0; k < size; k++) bytes[k] = Math.floor(r() * 256);
    files[name] = bytes;
  }
  return files;
}

function writeTree(dir: string, files: Record<string, Uint8Array>): void {
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
}

const SMALL: ParallelOptions = { batchFiles: 3, slotBytes: SLOT, slots: 2 };

test('property: the parallel reader gives the sequential address and bytes on random trees, with 0-2 readers', async () => {
  const root = mkdtempSync(join(tmpdir(), 'canon-par-'));
  try {
    for (let seed = 1; seed <= 24; seed++) {
      const dir = join(root, `t${seed}`);
      const files = randomTree(seed);
      writeTree(dir, files);
      const want = commit(files);
      assert.is(fingerprintDirectory(dir).address, want.address, `seed ${seed}: sync`);
      // Readers start once per fingerprint (tens of ms): every seed without, every fourth with one and two.
      for (const workers of seed % 4 === 0 ? [0, 1, 2] : [0]) {
        const fp = await fingerprintDirectoryAsync(dir, { parallel: true, parallelOptions: { ...SMALL, workers } });
        const label = `seed ${seed}, ${workers} reader(s)`;
        assert.is(fp.address, want.address, label);
        assert.equal([fp.files, fp.bytes], [Object.keys(files).length, want.bytes.length], label);
        assert.is(fp.parallel?.workers, workers, label);
        assert.is(fp.parallel?.capBytes, 2 * SMALL.slots! * SLOT, label);
        assert.ok(fp.parallel!.workerBatches <= fp.parallel!.batches, label);
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the parallel reader streams the same OPWM1 bytes through serializeDirectoryTo', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'canon-par-ser-'));
  try {
    const files = randomTree(99);
    writeTree(dir, files);
    const chunks: Buffer[] = [];
    const fp = await serializeDirectoryTo(
      dir,
      { write: (c: Uint8Array) => chunks.push(Buffer.from(c)) },
      { parallel: true, parallelOptions: { ...SMALL, workers: 1 } },
    );
    assert.ok(Buffer.concat(chunks).equals(serializeArtifact(files)));
    assert.is(fp.address, commit(files).address);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a tree of 3,000 files read with the default batches and one reader gives the sequential address', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'canon-par-many-'));
  try {
    for (let d = 0; d < 3; d++) {
      mkdirSync(join(dir, `d${d}`));
      for (let f = 0; f < 1000; f++) writeFileSync(join(dir, `d${d}`, `f${f}.txt`), `${d}/${f}\n`.repeat(f % 50));
    }
    const fp = await fingerprintDirectoryAsync(dir, { parallel: true, parallelOptions: { workers: 1 } });
    const want = fingerprintDirectory(dir).address;
    assert.is(fp.address, want);
    assert.is(fp.files, 3000);
    assert.is(fp.parallel?.capBytes, 4 << 20, 'the default cap: 2 rings of 8 slots of 256 KiB');
    // The kept tuning option: a share of the batches for this thread and a bounded wait for the reader past it.
    for (const waitMs of [1, 4]) {
      const waited = await fingerprintDirectoryAsync(dir, {
        parallel: true,
        parallelOptions: { workers: 1, waitMs, mainShare: 0.5 },
      });
      assert.is(waited.address, want, `waitMs ${waitMs}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("OPWM1 vectors: trees rebuilt from the reference's version files hash to their names in parallel", async () => {
  const bins = allBins();
  const root = mkdtempSync(join(tmpdir(), 'canon-par-vec-'));
  try {
    // Every bin without a reader thread (the batch format), and every 25th with one as well.
    for (const [k, bin] of bins.entries()) {
      const entries = parseArtifact(new Uint8Array(readFileSync(bin)));
      const dir = join(root, `v${k}`);
      mkdirSync(dir);
      for (const e of entries) {
        mkdirSync(join(dir, e.path, '..'), { recursive: true });
        writeFileSync(join(dir, e.path), e.content);
      }
      const want = basename(bin, '.bin').replace('_', ':');
      for (const workers of k % 25 === 0 ? [0, 1] : [0]) {
        const fp = await fingerprintDirectoryAsync(dir, { parallel: true, parallelOptions: { ...SMALL, workers } });
        assert.is(fp.address, want, `${bin}, ${workers} reader(s)`);
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('OPWM1 vectors: every version file of the reference in one tree, read in parallel, as commit() of the same files', async () => {
  const root = mkdtempSync(join(tmpdir(), 'canon-par-all-'));
  try {
    const files: Record<string, Uint8Array> = {};
    for (const [k, bin] of allBins().entries())
      for (const e of parseArtifact(new Uint8Array(readFileSync(bin)))) files[`v${k}/${e.path}`] = e.content;
    writeTree(root, files);
    const fp = await fingerprintDirectoryAsync(root, { parallel: true, parallelOptions: { ...SMALL, workers: 1 } });
    assert.is(fp.address, commit(files).address);
    assert.is(fp.files, Object.keys(files).length);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

/** Runs `fn` in a fresh temp dir, removed after. */
async function inTempDir(prefix: string, fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a slot filled to its last bytes leaves the rest of its batch to the hashing thread, in a reused slot', () =>
  inTempDir('canon-par-full-', async (dir) => {
    // Batches of 3 in 2 slots: batch 2 reuses batch 0's slot. "2a" fills it to 4 bytes short of its end (8 bytes
    // of lengths, 2 of path, 4082 of content), so "2b" and "2c" must be read by the hashing thread.
    const files: Record<string, Uint8Array> = {};
    for (const name of ['0a', '0b', '0c', '1a', '1b', '1c', '2b', '2c']) files[name] = new TextEncoder().encode(name);
    files['2a'] = new Uint8Array(SLOT - 4 - 10).fill(7);
    writeTree(dir, files);
    for (const workers of [0, 1]) {
      const fp = await fingerprintDirectoryAsync(dir, { parallel: true, parallelOptions: { ...SMALL, workers } });
      assert.is(fp.address, commit(files).address, `${workers} reader(s)`);
    }
  }));

test('the pooled readers serve tree after tree, two trees at once, and start again after closeReaderThreads', () =>
  inTempDir('canon-par-pool-', async (root) => {
    const trees = [101, 102, 103].map((seed) => {
      const files = randomTree(seed);
      writeTree(join(root, `t${seed}`), files);
      return { dir: join(root, `t${seed}`), want: commit(files).address };
    });
    const opts = { parallel: true, parallelOptions: { ...SMALL, workers: 2 } } as const;
    for (let round = 0; round < 2; round++) {
      for (const t of trees)
        assert.is((await fingerprintDirectoryAsync(t.dir, opts)).address, t.want, `round ${round}`);
      const both = await Promise.all(trees.map((t) => fingerprintDirectoryAsync(t.dir, opts)));
      assert.equal(
        both.map((fp) => fp.address),
        trees.map((t) => t.want),
        `round ${round}, at once`,
      );
      await closeReaderThreads();
    }
  }));

test('a consumer that stops early leaves the readers fit for the next tree', () =>
  inTempDir('canon-par-stop-', async (dir) => {
    const files = randomTree(104);
    writeTree(dir, files);
    const opts = { parallel: true, parallelOptions: { ...SMALL, workers: 1 } } as const;
    await fingerprintDirectoryAsync(dir, opts); // the reader has started
    const failing = {
      write(): never {
        throw new Error('sink full');
      },
    };
    await serializeDirectoryTo(dir, failing, opts).then(
      () => assert.unreachable('the sink threw'),
      (e: Error) => assert.is(e.message, 'sink full'),
    );
    assert.is((await fingerprintDirectoryAsync(dir, opts)).address, commit(files).address);
  }));

test('a file gone between the walk and its read is E_NOT_FOUND naming it, whoever reads it', () =>
  inTempDir('canon-par-gone-', async (dir) => {
    for (let f = 0; f < 40; f++) writeFileSync(join(dir, `f${String(f).padStart(2, '0')}.txt`), `file ${f}\n`);
    const planned = planTree(fsTreeReader, dir);
    unlinkSync(join(dir, 'f29.txt'));
    for (const workers of [0, 1]) {
      const stats = { files: 0, bytes: 0 };
      const chunks = artifactChunksParallel(fsTreeReader, planned, stats, { ...SMALL, workers });
      const err = await (async () => {
        for await (const _ of chunks);
      })().then(
        () => undefined,
        (e: { code?: string; message: string }) => e,
      );
      assert.is(err?.code, 'E_NOT_FOUND', `${workers} reader(s)`);
      assert.ok(err!.message.includes('f29.txt'), err!.message);
    }
  }));

test('a symlink inside the tree is refused with the parallel reader as without it', () =>
  inTempDir('canon-par-link-', async (dir) => {
    for (let f = 0; f < 10; f++) writeFileSync(join(dir, `f${f}.txt`), `${f}`);
    symlinkSync('f1.txt', join(dir, 'link.txt'));
    await fingerprintDirectoryAsync(dir, { parallel: true, parallelOptions: SMALL }).then(
      () => assert.unreachable('a symlink was hashed'),
      (e: { code?: string; message: string }) => {
        assert.is(e.code, 'E_FORMAT');
        assert.ok(e.message.includes('link.txt') && e.message.includes('symlink'), e.message);
      },
    );
  }));

test.run();
