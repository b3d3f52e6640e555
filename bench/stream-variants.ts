/**
 * Our fingerprint's one-thread variants on the bench's medium or large tree, in one process, interleaved, against
 * the two halves of the limit: `auto` (what `fingerprint` runs: the pool's reads, given up when they make this
 * thread wait), the sync stream, and both with a 256 KiB buffer. Beside the wall time, the CPU time of this thread
 * and of the rest of the process (the pool's reads).
 *
 *   node --import tsx bench/stream-variants.ts [medium|large] [ROUNDS=21]
 *
 * Every call's address is checked against the sync stream's. Not part of `bench`: a tuning aid.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fingerprintDirectory, fingerprintDirectoryAsync } from '../src/fingerprint/index.ts';
import { loadTree, rawHash, readOnlyWalk } from '../src/bench/limit-tasks.ts';
import { median } from '../src/bench/measure.ts';
import { assertThreadCpuUsage, measureVariants } from './variant-rounds.ts';
import { generateWorkload, WORKLOADS } from '../src/bench/workloads.ts';

assertThreadCpuUsage();
const which = process.argv[2] ?? 'large';
const workload = WORKLOADS.full.find((w) => w.name === which && w.name !== 'small');
if (!workload) throw new Error(`a workload of one thread's stream: medium or large, not ${which}`);
const rounds = Number(process.argv[3] ?? 21);
const root = mkdtempSync(join(tmpdir(), 'prose-state-stream-variants-'));
try {
  const dir = generateWorkload(root, workload);
  const buffers = loadTree(dir);
  const walkBuffer = new Uint8Array(1 << 20);
  const want = fingerprintDirectory(dir).address;
  const check = (name: string, address: string): void => {
    if (address !== want) throw new Error(`${name} gave ${address}, not ${want}`);
  };
  const small = 256 << 10;
  const tasks: Record<string, () => unknown> = {
    sync: () => check('sync', fingerprintDirectory(dir).address),
    auto: async () => check('auto', (await fingerprintDirectoryAsync(dir)).address),
    'sync 256K': () => check('sync 256K', fingerprintDirectory(dir, { bufferBytes: small }).address),
    'auto 256K': async () => check('auto 256K', (await fingerprintDirectoryAsync(dir, { bufferBytes: small })).address),
    walk: () => readOnlyWalk(dir, walkBuffer),
    'raw hash': () => rawHash(buffers),
  };
  const { wall, main, rest } = await measureVariants(tasks, rounds);
  const limit = median(wall.walk!) + median(wall['raw hash']!);
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  console.log(
    `${workload.description}, ${rounds} rounds, load average ${load}; single-thread limit ${limit.toFixed(1)} ms`,
  );
  console.log('task         wall ms  x limit | this thread CPU  other threads');
  for (const name of Object.keys(tasks)) {
    const w = median(wall[name]!);
    console.log(
      `${name.padEnd(12)} ${w.toFixed(1).padStart(7)} ${(w / limit).toFixed(2).padStart(7)}x | ${median(main[name]!).toFixed(1).padStart(15)} ${median(rest[name]!).toFixed(1).padStart(14)}`,
    );
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
