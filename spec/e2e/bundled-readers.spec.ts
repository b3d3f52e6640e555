import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REPO } from './built-binary.ts';

// The reader threads run reader-worker.ts, which the binary's bundle step bundles to a script of its own and defines
// into the CLI's bundle as a string. A broken one would not show as a wrong address: the hashing thread takes a job
// no reader serves back and reads the tree itself, only slower. So this bundles a small program with the binary's
// own esbuild step (scripts/binary/bundle.mjs) and checks, in that bundle, that a reader thread filled ring slots
// the hash used.

const ENTRY = (repo: string): string => `
import { createHash } from 'node:crypto';
import { artifactChunksAsync } from ${JSON.stringify(join(repo, 'src/fingerprint/artifact-stream-async.ts'))};
import { startFramesJob } from ${JSON.stringify(join(repo, 'src/fingerprint/frame-ring.ts'))};
import {
  fingerprintDirectory, framesJobsStarted, framesSlotsFromReaders, fsTreeReader, planTree, readyReaderThreads,
} from ${JSON.stringify(join(repo, 'src/fingerprint/index.ts'))};

async function main(dir: string): Promise<void> {
  const want = fingerprintDirectory(dir).address;
  const addresses: string[] = [];
  // The first tree starts no reader thread and the second starts one; wait for it, then two trees read ahead.
  for (let round = 0; round < 4; round++) {
    if (round === 2) for (let i = 0; i < 500 && readyReaderThreads() === 0; i++) await new Promise((r) => setTimeout(r, 10));
    const h = createHash('sha256');
    const chunks = artifactChunksAsync(fsTreeReader, planTree(fsTreeReader, dir), { files: 0, bytes: 0 }, 1 << 20, () => true, startFramesJob);
    for await (const c of chunks) h.update(c);
    addresses.push('sha256:' + h.digest('hex'));
  }
  console.log(JSON.stringify({ same: addresses.every((a) => a === want), jobs: framesJobsStarted(), slots: framesSlotsFromReaders() }));
}
main(process.argv[2]!);
`;

test('in the binary bundle, a reader thread reads a tree ahead: jobs started, slots filled, the same address', async () => {
  const work = mkdtempSync(join(tmpdir(), 'prose-state-bundled-readers-'));
  try {
    const tree = join(work, 'tree');
    mkdirSync(join(tree, 'd'), { recursive: true });
    writeFileSync(join(tree, 'a.txt'), 'first\n');
    writeFileSync(join(tree, 'd', 'large.bin'), Buffer.alloc(3 << 20, 7));
    writeFileSync(join(tree, 'z.txt'), 'last\n');
    writeFileSync(join(work, 'entry.ts'), ENTRY(REPO));
    const { bundleCli } = await import(join(REPO, 'scripts', 'binary', 'bundle.mjs'));
    await bundleCli({ entry: join(work, 'entry.ts'), outfile: join(work, 'bundle.cjs'), suiteKey: 'spec' });
    const run = spawnSync(process.execPath, [join(work, 'bundle.cjs'), tree], { encoding: 'utf8', timeout: 60_000 });
    assert.is(run.status, 0, run.stderr);
    const got = JSON.parse(run.stdout) as { same: boolean; jobs: number; slots: number };
    assert.ok(got.same, 'every stream gave the sequential address');
    assert.is(got.jobs, 2, 'the third and fourth trees were handed to the reader thread');
    // 3 MiB less the first 64 KiB in 256 KiB slots: about a dozen per tree; without a working reader, none.
    assert.ok(got.slots >= 2 * 12, `slots filled by the reader: ${got.slots}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test.run();
