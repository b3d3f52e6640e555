/**
 * The measuring loop of the tuning aids (parallel-variants.ts, stream-variants.ts): every task once per round, in
 * turn, after one warm-up round; per task the wall time, the CPU time of this thread and that of the rest of the
 * process (reader threads, the thread pool), in ms.
 */

// Node 23.9+ (the pinned Node 24 has it; the installed @types/node predates it).
const threadCpuUsage = (process as unknown as { threadCpuUsage?: (prev?: NodeJS.CpuUsage) => NodeJS.CpuUsage })
  .threadCpuUsage;

export interface VariantTimes {
  wall: Record<string, number[]>;
  main: Record<string, number[]>;
  rest: Record<string, number[]>;
}

export function assertThreadCpuUsage(): void {
  if (!threadCpuUsage) throw new Error(`process.threadCpuUsage needs Node 23.9 or later; this is ${process.version}`);
}

export async function measureVariants(tasks: Record<string, () => unknown>, rounds: number): Promise<VariantTimes> {
  assertThreadCpuUsage();
  const times: VariantTimes = { wall: {}, main: {}, rest: {} };
  for (let r = -1; r < rounds; r++)
    for (const [name, run] of Object.entries(tasks)) {
      const p0 = process.cpuUsage();
      const m0 = threadCpuUsage!();
      const t0 = performance.now();
      await run();
      const t = performance.now() - t0;
      const p = process.cpuUsage(p0);
      const m = threadCpuUsage!(m0);
      if (r < 0) continue; // a warm-up round (reader threads start in it)
      (times.wall[name] ??= []).push(t);
      (times.main[name] ??= []).push((m.user + m.system) / 1000);
      (times.rest[name] ??= []).push((p.user + p.system - m.user - m.system) / 1000);
    }
  return times;
}
