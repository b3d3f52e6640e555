import type { Backend, BackendEnv, BackendFactory } from '../core/backend.ts';
import { ProseError } from '../core/errors.ts';
import { checkWritten } from './check-written.ts';
import { spawnWorker } from './spawn-worker.ts';
import { withTimeout } from './with-timeout.ts';
import { seededRandom, type Workload } from './workload.ts';

export interface WorkerContext {
  factory: BackendFactory;
  env: BackendEnv;
  run: string;
  /** argv that starts the CLI in a child process. */
  command: readonly string[];
  seed: number;
  readyTimeoutMs: number;
  /** Aborted when the step timed out: every process the step started is SIGKILLed (none outlives its case). */
  signal?: AbortSignal;
  /** Told after each kill of a crash step was checked, with the seeded wait before it (test's progress line). */
  onKill?(done: number, total: number, delayMs: number): void;
  /** Closes the in-process backend (workers own the storage while they run) and reopens it. */
  reopen(): Promise<Backend>;
  close(): Promise<void>;
}

export type WorkerVerdict = { ok: true; metrics: Record<string, number> } | { ok: false; message: string };

/** What every worker process of a step shares: the command, the backend string, the storage, the run, the ready
 * timeout, and the step's abort (a step that times out kills what it started). */
export function workerBase(ctx: WorkerContext) {
  return {
    command: ctx.command,
    backendSpec: specOf(ctx.factory),
    env: ctx.env,
    run: ctx.run,
    readyTimeoutMs: ctx.readyTimeoutMs,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  };
}

export function specOf(f: BackendFactory): string {
  if (!f.spec)
    throw new ProseError('E_CASE', `${f.name} cannot be opened in another process (no backend string)`, {
      hint: 'crash and concurrency cases need a backend named on the command line',
    });
  return f.spec;
}

/**
 * The crash area: a writer process is killed with SIGKILL at `kills` seeded points; after each kill the storage
 * is reopened and everything acknowledged before the kill must be there, whole.
 */
/** What runCrash reads of a crash step. */
export interface CrashRun {
  workload: Workload;
  kills: number;
  maxDelayMs: number;
}

export async function runCrash(step: CrashRun, ctx: WorkerContext): Promise<WorkerVerdict> {
  const random = seededRandom(ctx.seed);
  const acks = new Map<string, unknown>();
  let next = 0;
  await ctx.close();
  // Each kill's worker is started one kill ahead: it loads its engine (module loading, WASM SQLite) while the
  // previous worker writes and its kill is checked, and opens the storage only when told where to start.
  const spawnAhead = () => spawnWorker({ ...workerBase(ctx), workload: step.workload, writer: 0, start: 'later' });
  let ahead = spawnAhead();
  try {
    for (let k = 1; k <= step.kills; k++) {
      const w = ahead;
      w.startAt(next);
      if (k < step.kills) ahead = spawnAhead();
      // A worker that never says ready is killed, as runConcurrent does: left alive it would hold the run open.
      await w.ready.catch((err: unknown) => {
        w.child.kill('SIGKILL');
        throw err;
      });
      // Kill points spread over the first writes, where a write is most often mid-flight; some land before any.
      const delayMs = Math.floor(random() * step.maxDelayMs);
      await new Promise((r) => setTimeout(r, delayMs));
      w.child.kill('SIGKILL');
      const done = await w.done;
      if (done.failure)
        return { ok: false, message: `kill ${k}: the writer was refused before the kill: ${done.failure}` };
      for (const [key, r] of done.acks) acks.set(key, r);
      next += done.acks.size;
      // Each kill's reopen and check is bounded on its own: a backend wedged by a kill (a lock its dead owner never
      // frees) errors within a minute, instead of holding the run for the whole step's budget (kills x step timeout).
      const problem = await withTimeout(
        ctx.reopen().then((backend) => checkWritten(backend, ctx.factory, ctx.run, acks, ctx.env)),
        2 * ctx.readyTimeoutMs,
        `kill ${k} of ${step.kills}: reopening the storage and reading back ${acks.size} acknowledged writes`,
      );
      if (problem)
        return {
          ok: false,
          message: `kill ${k} of ${step.kills} (after ${done.acks.size} acknowledged writes): ${problem}`,
        };
      await ctx.close();
      ctx.onKill?.(k, step.kills, delayMs);
    }
  } finally {
    // The last worker ahead goes unused when the loop ends early; it never touched the storage.
    if (ahead.child.exitCode === null && ahead.child.signalCode === null) ahead.child.kill('SIGKILL');
  }
  await ctx.reopen();
  return { ok: true, metrics: { kills: step.kills, 'crash writes': acks.size } };
}

/** The concurrency area: `writers` processes write at once; nothing may be lost, duplicated or skipped. */
/** What runConcurrent reads of a concurrent step. */
export interface ConcurrentRun {
  workload: Workload;
  writers: number;
  each: number;
}

export async function runConcurrent(step: ConcurrentRun, ctx: WorkerContext): Promise<WorkerVerdict> {
  await ctx.close();
  const workers = Array.from({ length: step.writers }, (_, writer) =>
    spawnWorker({ ...workerBase(ctx), workload: step.workload, writer, start: 0, count: step.each, waitForGo: true }),
  );
  try {
    await Promise.all(workers.map((w) => w.ready));
  } catch (err) {
    for (const w of workers) w.child.kill('SIGKILL');
    throw err;
  }
  for (const w of workers) w.child.stdin!.end();
  const results = await Promise.all(workers.map((w) => w.done));
  const failed = results.find((r) => r.failure || r.code !== 0);
  if (failed)
    return {
      ok: false,
      message: `a writer failed: ${failed.failure ?? `exit ${failed.signal ?? failed.code}: ${failed.stderr.slice(-300)}`}`,
    };
  const acks = new Map<string, unknown>();
  for (const r of results) for (const [k, v] of r.acks) acks.set(k, v);
  const expected = step.writers * step.each;
  if (acks.size !== expected) return { ok: false, message: `${acks.size} of ${expected} writes were acknowledged` };
  const backend = await ctx.reopen();
  const problem = await checkWritten(backend, ctx.factory, ctx.run, acks, ctx.env, true);
  if (problem) return { ok: false, message: `${step.writers} writers x ${step.each}: ${problem}` };
  return { ok: true, metrics: { writers: step.writers, 'concurrent writes': expected } };
}
