import type { Node, YAMLMap } from 'yaml';
import { ProseError } from '../../core/errors.ts';
import type { SourcePos } from '../source-pos.ts';
import { caseError, checkKeys, toJs } from '../case-yaml.ts';
import type { InProcessCrashContext } from '../run-crash-in-process.ts';
import { progressKey } from '../run-context.ts';
import type { WorkerVerdict } from '../run-workers.ts';
import { withTimeout } from '../with-timeout.ts';
import { WORKLOADS, type Workload } from '../workload.ts';
import { addMetrics, StepFailure, type StepRun, type StepSite } from './step-kind.ts';

export interface WorkerRun {
  /** Names the step in failures and timeouts. */
  label: string;
  /** Bounded like any step, scaled by its work: a writer or a check that hangs errors the case, never the run. */
  budgetMs: number;
  /** The runner writes in its own process (a simulated crash): no worker command is needed. */
  inProcess?: boolean;
}

/**
 * Runs a step's writers (worker processes of the CLI, or the runner itself for an in-process crash) through `start`,
 * then turns the verdict into the step's outcome: a skip or a failure ends the case, the counts join its metrics.
 */
export async function runWorkerStep(
  step: { kind: string; pos: SourcePos },
  r: StepRun,
  w: WorkerRun,
  start: (wctx: InProcessCrashContext) => Promise<WorkerVerdict | { skip: string }>,
): Promise<void> {
  const { ctx, state } = r;
  if (!ctx.workerCommand && !w.inProcess)
    throw new ProseError('E_CASE', `${step.kind} steps need a worker command`, { location: step.pos });
  const abort = new AbortController();
  // On timeout, or when the run's deadline passes, the step's processes are killed: left running they wrote into the
  // next case's time and files, or outlived the run.
  const work = withTimeout(start(workerContext(r, abort.signal)), w.budgetMs, w.label);
  const verdict = await (ctx.runSignal ? Promise.race([work, rejectOnAbort(ctx.runSignal)]) : work).catch(
    (err: unknown) => {
      abort.abort();
      throw err;
    },
  );
  if ('skip' in verdict) throw new StepFailure({ status: 'skipped', reason: verdict.skip });
  if (!verdict.ok) {
    const replay = ctx.runSeed === undefined ? '' : ` (replay with --seed ${ctx.runSeed})`;
    throw new StepFailure({ status: 'failed', at: step.pos, step: w.label, message: verdict.message + replay });
  }
  addMetrics(state, verdict.metrics);
}

/** Rejects with the signal's reason once it aborts (at once when it has already). */
function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** What the writers see of the case: its storage, its run, the seed of their kill points, and the backend it holds. */
function workerContext({ ctx, env, vars, state }: StepRun, signal: AbortSignal): InProcessCrashContext {
  return {
    signal,
    factory: ctx.factory,
    env,
    run: String(vars.run),
    command: ctx.workerCommand ?? [],
    seed: ctx.seed,
    readyTimeoutMs: ctx.stepTimeoutMs,
    ...(ctx.progress
      ? { onKill: (k: number, of: number, ms: number) => ctx.progress!.kill(progressKey(ctx), k, of, ms) }
      : {}),
    reopen: async () => (state.backend ??= await ctx.factory.open(env)),
    close: async () => {
      await state.backend?.close();
      state.backend = undefined;
    },
    abandon: () => {
      const b = state.backend;
      state.backend = undefined;
      return b;
    },
  };
}

/** What a writing step wrote, for later steps' expectations (`$length: "${writes}"`): a quick run writes fewer. */
export function countWrites(r: StepRun, writes: number): void {
  r.vars.writes = writes;
  r.ctx.progress?.writesChecked(progressKey(r.ctx), writes);
}

/** A crash or concurrent step's mapping under `key`: fields checked against `allowed`, its workload, its counts. */
export function workerFields(node: YAMLMap, key: string, site: StepSite, allowed: string[]) {
  const { p, field, pos } = site;
  checkKeys(p, node, new Set([key]), field);
  const body = (toJs(p, node.get(key, true) as Node) ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(body))
    if (!allowed.includes(k))
      throw caseError(p.file, pos.line, `unknown field "${k}"; allowed: ${allowed.join(', ')}`, `${field}.${key}.${k}`);
  if (!WORKLOADS.includes(body.workload as never))
    throw caseError(p.file, pos.line, `workload must be one of ${WORKLOADS.join(', ')}`, `${field}.${key}.workload`);
  const int = (k: string, d?: number): number => {
    const v = body[k] ?? d;
    if (!Number.isSafeInteger(v) || (v as number) < 1)
      throw caseError(p.file, pos.line, `"${k}" must be a positive whole number`, `${field}.${key}.${k}`);
    return v as number;
  };
  return { body, workload: body.workload as Workload, int };
}
