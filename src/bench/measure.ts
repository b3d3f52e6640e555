import { Bench, type Task } from 'tinybench';
import type { Timing } from './bench-report.ts';

export interface MeasureTask<R = unknown> {
  name: string;
  fn: () => R;
  /** Minimum samples per round (whole-process peers take few). */
  iterations: number;
  /** Time budget per round in ms (tinybench runs until both this and `iterations` are met). */
  time?: number;
  /** Runs only every `every`-th round (default 1): slow peers sampled less often than fast in-process tasks. */
  every?: number;
}

/**
 * Runs the tasks in `rounds` interleaved rounds (A, B, C, then A, B, C again) so that a noisy neighbour slows
 * every task alike, and reports per task the median of the round medians. Sync tasks use tinybench's sync path.
 * A task that throws fails the measurement (`throws: true`): timing a broken operation would mean nothing.
 */
export function measureInterleaved(tasks: MeasureTask[], rounds: number): Map<string, Timing> {
  const acc = new Accumulator();
  for (let r = 0; r < rounds; r++) {
    for (const task of tasks) if (r % (task.every ?? 1) === 0) acc.add(task.name, benchFor(task, r).runSync()[0]!);
  }
  return acc.timings(tasks);
}

/** The async twin, for backend calls (each op is a promise). */
export async function measureInterleavedAsync(
  tasks: MeasureTask<Promise<unknown>>[],
  rounds: number,
): Promise<Map<string, Timing>> {
  const acc = new Accumulator();
  for (let r = 0; r < rounds; r++) {
    for (const task of tasks)
      if (r % (task.every ?? 1) === 0) acc.add(task.name, (await benchFor(task, r, true).run())[0]!);
  }
  return acc.timings(tasks);
}

function benchFor(task: MeasureTask<unknown>, round: number, async = false): Bench {
  const bench = new Bench({
    iterations: task.iterations,
    time: task.time ?? 0,
    warmupIterations: round === 0 ? 2 : 1,
    warmupTime: 0,
    throws: true,
  });
  // An async task is handed over as an async function: tinybench calls any other function once, unawaited, to see
  // whether it returns a promise, and that stray call would overlap the samples (a shared reader pool then answers
  // the wrong call: the parallel limit measured 5x too fast).
  bench.add(task.name, async ? async () => await task.fn() : (task.fn as () => unknown));
  return bench;
}

class Accumulator {
  private medians = new Map<string, number[]>();
  private means = new Map<string, number[]>();
  private counts = new Map<string, number>();

  add(name: string, task: Task): void {
    const res = task.result;
    if (res.state !== 'completed') throw new Error(`benchmark task ${name} ended ${res.state}`);
    // tinybench's latency statistics are in milliseconds (its table prints ns).
    push(this.medians, name, res.latency.p50);
    push(this.means, name, res.latency.mean);
    this.counts.set(name, (this.counts.get(name) ?? 0) + res.latency.samplesCount);
  }

  timings(tasks: readonly { name: string }[]): Map<string, Timing> {
    const out = new Map<string, Timing>();
    for (const { name } of tasks) {
      const means = this.means.get(name)!;
      out.set(name, {
        ms: median(this.medians.get(name)!),
        meanMs: means.reduce((a, b) => a + b, 0) / means.length,
        samples: this.counts.get(name)!,
      });
    }
    return out;
  }
}

function push(m: Map<string, number[]>, k: string, v: number): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
