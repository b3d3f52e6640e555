/**
 * The parallel reader's variants against one thread and the two limits, in one process, interleaved, on the bench's
 * small tree (10,000 x 1 KiB), with the CPU time of the hashing thread and of the rest of the process beside the
 * wall time: on a shared machine the wall time swings, while with a second core free it is about the larger of the
 * two CPU times ("est"), which a neighbour's load moves much less.
 *
 *   node --import tsx bench/parallel-variants.ts [ROUNDS=15]
 *
 * Every call's address is checked against the one-thread address. Not part of `bench`: a tuning aid.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeReaderThreads, fingerprintDirectoryAsync, type FingerprintOptions } from '../src/fingerprint/index.ts';
import { loadTree, rawHash, readOnlyWalk, startParallelLimit } from '../src/bench/limit-tasks.ts';
import { median } from '../src/bench/measure.ts';
import { assertThreadCpuUsage, measureVariants } from './variant-rounds.ts';
import { generateWorkload, WORKLOADS } from '../src/bench/workloads.ts';

assertThreadCpuUsage();
const rounds = Number(process.argv[2] ?? 15);
const root = mkdtempSync(join(tmpdir(), 'prose-state-variants-'));
try {
  const dir = generateWorkload(root, WORKLOADS.full[0]!);
  const buffers = loadTree(dir);
  const walkBuffer = new Uint8Array(1 << 20);
  const limit = await startParallelLimit(dir, 2);
  const want = (await fingerprintDirectoryAsync(dir, { parallel: false })).address;
  const share: Record<string, number[]> = {};
  const fp = (name: string, opts: FingerprintOptions) => async () => {
    const r = await fingerprintDirectoryAsync(dir, opts);
    if (r.address !== want) throw new Error(`${name} gave ${r.address}, not ${want}`);
    (share[name] ??= []).push(r.parallel ? r.parallel.workerBatches / r.parallel.batches : -1);
  };
  const forced = (o: FingerprintOptions['parallelOptions']) => ({ parallel: true, parallelOptions: o }) as const;
  const tasks: Record<string, () => unknown> = {
    'one thread': fp('one thread', { parallel: false }),
    auto: fp('auto', {}),
    forced: fp('forced', { parallel: true }),
    'wait 4 ms, share 0.5': fp('wait 4 ms, share 0.5', forced({ waitMs: 4, mainShare: 0.5 })),
    'share 0.3': fp('share 0.3', forced({ waitMs: 4, mainShare: 0.3 })),
    'share 0.7': fp('share 0.7', forced({ waitMs: 4, mainShare: 0.7 })),
    'share 0.85': fp('share 0.85', forced({ waitMs: 4, mainShare: 0.85 })),
    'share 1.0': fp('share 1.0', forced({ waitMs: 4, mainShare: 1 })),
    'wait 1 ms': fp('wait 1 ms', forced({ waitMs: 1 })),
    'batch 32': fp('batch 32', forced({ batchFiles: 32 })),
    'batch 128': fp('batch 128', forced({ batchFiles: 128 })),
    walk: () => readOnlyWalk(dir, walkBuffer),
    'raw hash': () => rawHash(buffers),
    'parallel limit': () => limit.run(buffers),
  };
  const { wall, main, rest } = await measureVariants(tasks, rounds);
  await limit.close();
  const limitWall = median(wall.walk!) + median(wall['raw hash']!);
  const limitCpu = median(main.walk!) + median(main['raw hash']!);
  console.log(
    `${rounds} rounds, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}; single-thread limit: wall ${limitWall.toFixed(1)} ms, CPU ${limitCpu.toFixed(1)} ms`,
  );
  console.log('task            wall ms  x limit | hashing-thread CPU  other threads  est x limit | readers supplied');
  for (const name of Object.keys(tasks)) {
    const w = median(wall[name]!);
    const m = median(main[name]!);
    // The parallel limit's other threads are two readers sharing the work: each holds half.
    const o = median(rest[name]!) / (name === 'parallel limit' ? 2 : 1);
    const s = share[name] ? median(share[name]!) : -1;
    console.log(
      `${name.padEnd(15)} ${w.toFixed(1).padStart(7)} ${(w / limitWall).toFixed(2).padStart(7)}x | ${m.toFixed(1).padStart(18)} ${o.toFixed(1).padStart(14)} ${(Math.max(m, o) / limitCpu).toFixed(2).padStart(11)}x | ${s < 0 ? '-' : `${(s * 100).toFixed(0)}%`}`,
    );
  }
} finally {
  await closeReaderThreads();
  rmSync(root, { recursive: true, force: true });
}
