import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { defaultActor, type Actor } from '../core/actor.ts';
import type { Backend, BackendEnv, BackendFactory } from '../core/backend.ts';
import type { Decisions } from '../core/decisions.ts';
import { ProseError, serializeError, toProseError } from '../core/errors.ts';
import { OPS, type OpArgs, type OpName } from '../core/ops.ts';
import type { Case, OpStep, SourcePos, Step } from './case-types.ts';
import { checkLayout } from './check-layout.ts';
import { match, show } from './match.ts';
import { plantStorages, runPlant } from './plant.ts';
import { platformSkip } from './platform-skips.ts';
import type { Outcome } from './outcome.ts';
import type { ProgressSink } from './progress.ts';
import { runSubagent, type FindingsFilter } from './run-subagent.ts';
import { findSqlite3, runMixedWriters } from './run-mixed-writers.ts';
import { runCrashStates } from './run-crash-states.ts';
import { runCrashInProcess, type InProcessCrashContext } from './run-crash-in-process.ts';
import { runConcurrent, runCrash } from './run-workers.ts';
import { interpolate, type Vars } from './template.ts';
import { withTimeout } from './with-timeout.ts';

export interface CaseContext {
  factory: BackendFactory;
  decisions: Decisions;
  /** A fresh directory for this case; removed afterwards. */
  dir: string;
  /** Milliseconds one step may take before the case is errored. */
  stepTimeoutMs: number;
  /** argv that starts this CLI in a child process (crash and concurrency workers). */
  workerCommand?: readonly string[];
  /** The seed of the crash area's kill points for this case, derived from the run's seed. */
  seed: number;
  /** The run's seed, named in failures: `--seed N --case ID` replays them. */
  runSeed?: number;
  /** Told each step before it runs, with the variables it will be interpolated with (test --explain). */
  onStep?: StepObserver;
  /** selftest only: a checker bug applied to each subagent step's findings. */
  checkerBug?: FindingsFilter;
  /** Told each kill of a crash step and the writes a worker step checked (test's progress line). */
  progress?: ProgressSink;
  /** Names the case in progress reports. */
  caseId?: string;
  /** The platform the case runs on (default: this process's); a case that cannot hold there is skipped. */
  platform?: NodeJS.Platform;
}

/** Sees the case unfold: `note` for what the runner does on its own, `step` before each step of the case. */
export interface StepObserver {
  note(text: string): void;
  step(step: Step, vars: Vars): void;
}

/** Harness and infrastructure errors: a broken backend or plugin, not an answer the spec allows or forbids. */
const ERRORED_CODES = new Set(['E_PLUGIN', 'E_BACKEND', 'E_IO', 'E_CASE']);

/** A failure of one step, thrown inside the case and turned into an outcome by `runCase`. */
class StepFailure {
  constructor(readonly outcome: Outcome) {}
}

/** Runs one case on fresh storage and returns its outcome; never throws. */
export async function runCase(c: Case, ctx: CaseContext): Promise<Outcome> {
  const missing = c.requires.filter((cap) => !ctx.factory.capabilities.includes(cap));
  if (missing.length)
    return {
      status: 'skipped',
      reason: `needs capability ${missing.join(', ')}, which ${ctx.factory.name} does not declare`,
    };
  const onPlatform = platformSkip(c, ctx.factory.kind, ctx.platform ?? process.platform);
  if (onPlatform) return { status: 'skipped', reason: onPlatform };
  const plants = plantStorages(c);
  if (plants.length && !(plants as string[]).includes(ctx.factory.kind)) {
    return {
      status: 'skipped',
      reason: `plants seed-written state for ${plants.join(', ')} storage; ${ctx.factory.name} keeps ${ctx.factory.kind} storage`,
    };
  }
  const env: BackendEnv = {
    projectDir: join(ctx.dir, 'project'),
    homeDir: join(ctx.dir, 'home'),
    decisions: ctx.decisions,
    storageKey: ctx.dir,
  };
  mkdirSync(env.projectDir, { recursive: true });
  mkdirSync(env.homeDir, { recursive: true });
  const state: RunState = { backend: undefined, layoutChecks: 0, layoutNotApplicable: 0, metrics: {} };
  try {
    state.backend = await withTimeout(ctx.factory.open(env), ctx.stepTimeoutMs, 'opening the backend');
    const vars: Vars = { decisions: ctx.decisions };
    if (c.run) {
      ctx.onStep?.note("the runner creates the case's run; the steps call it ${run}");
      const r = await state.backend.call(
        'createRun',
        { program: `# conformance case ${c.id}\nsession "${c.title.replace(/"/g, "'")}"\n` },
        { role: 'vm' },
      );
      vars.run = r.run;
      vars.runId = r.runId;
    }
    await runSteps(c.steps, vars, ctx, env, state);
    const metrics = Object.keys(state.metrics).length ? { metrics: state.metrics } : {};
    return {
      status: 'passed',
      layoutChecks: state.layoutChecks,
      layoutNotApplicable: state.layoutNotApplicable,
      ...metrics,
    };
  } catch (err) {
    if (err instanceof StepFailure) return err.outcome;
    const e = toProseError(err);
    return { status: 'errored', error: serializeError(e), evidence: evidenceOf(err) };
  } finally {
    await state.backend?.close().catch(() => undefined);
    await ctx.factory.dispose?.(env).catch(() => undefined);
    rmSync(ctx.dir, { recursive: true, force: true });
  }
}

type RunState = {
  backend: Backend | undefined;
  layoutChecks: number;
  layoutNotApplicable: number;
  metrics: Record<string, number>;
};

async function runSteps(steps: Step[], vars: Vars, ctx: CaseContext, env: BackendEnv, state: RunState): Promise<void> {
  for (const step of steps) {
    ctx.onStep?.step(step, vars);
    switch (step.kind) {
      case 'restart':
        await state.backend!.close();
        state.backend = undefined;
        if (step.project !== undefined) {
          // Another project, the same home: every later step (layout, subagents) sees the new project directory.
          env.projectDir = join(ctx.dir, `project-${step.project}`);
          mkdirSync(env.projectDir, { recursive: true });
        }
        state.backend = await withTimeout(ctx.factory.open(env), ctx.stepTimeoutMs, 'reopening the backend');
        break;
      case 'plant':
        // A plant for another storage kind is that kind's version of the same seed state.
        if (step.storage !== ctx.factory.kind) break;
        await withTimeout(
          runPlant(step, {
            env,
            vars,
            backend: state.backend!,
            close: async () => {
              await state.backend?.close();
              state.backend = undefined;
            },
            reopen: async () => {
              state.backend = await ctx.factory.open(env);
            },
          }),
          ctx.stepTimeoutMs,
          `plant ${step.storage}`,
        );
        break;
      case 'repeat': {
        const times = interpolate(step.times, vars);
        if (!Number.isSafeInteger(times))
          throw new ProseError('E_CASE', `repeat needs a whole number, got ${show(times)}`, { location: step.pos });
        // Saves inside the loop are visible after it (a chain of frames is built that way); only `i` is scoped.
        const outer = vars.i;
        for (let i = 1; i <= (times as number); i++) {
          vars.i = i;
          await runSteps(step.steps, vars, ctx, env, state);
        }
        vars.i = outer;
        break;
      }
      case 'layout': {
        const verdict = await checkLayout(step, ctx.factory, state.backend!, vars);
        if (verdict === 'n/a') state.layoutNotApplicable += 1;
        else if (verdict)
          throw new StepFailure({ status: 'failed', at: step.pos, step: `layout ${step.storage}`, message: verdict });
        else state.layoutChecks += 1;
        break;
      }
      case 'op':
        await runOp(step, vars, ctx, state.backend!);
        // Each expected refusal that held is one bad input tried (the hostile-input area's count).
        if (step.error) state.metrics['bad inputs refused'] = (state.metrics['bad inputs refused'] ?? 0) + 1;
        break;
      case 'crash':
      case 'crash-states':
      case 'concurrent':
      case 'mixed-writers': {
        // The mixed-writers area needs the real sqlite3; where there is none the case is skipped, saying so.
        const sqlite3 = step.kind === 'mixed-writers' ? findSqlite3() : undefined;
        if (sqlite3 && 'skip' in sqlite3) throw new StepFailure({ status: 'skipped', reason: sqlite3.skip });
        const inProcess = step.kind === 'crash' && step.inProcess;
        if (!ctx.workerCommand && !inProcess)
          throw new ProseError('E_CASE', `${step.kind} steps need a worker command`, { location: step.pos });
        const abort = new AbortController();
        const wctx: InProcessCrashContext = {
          signal: abort.signal,
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
        // Bounded like any step, scaled by its work: a writer or a check that hangs errors the case, never the run.
        const label =
          step.kind === 'mixed-writers'
            ? 'mixed-writers'
            : `${step.kind}${inProcess ? ' in-process' : ''} ${step.workload}`;
        if (step.kind === 'crash-states') {
          const states = await withTimeout(runCrashStates(step, wctx), ctx.stepTimeoutMs * 10, label).catch(
            (err: unknown) => {
              abort.abort();
              throw err;
            },
          );
          if ('skip' in states) throw new StepFailure({ status: 'skipped', reason: states.skip });
          if (!states.ok) {
            const replay = ctx.runSeed === undefined ? '' : ` (replay with --seed ${ctx.runSeed})`;
            throw new StepFailure({ status: 'failed', at: step.pos, step: label, message: states.message + replay });
          }
          for (const [k, v] of Object.entries(states.metrics)) state.metrics[k] = (state.metrics[k] ?? 0) + v;
          break;
        }
        const budget =
          ctx.stepTimeoutMs *
          (step.kind === 'crash' ? step.kills : step.kind === 'concurrent' ? step.writers : step.ours + step.cli);
        const running =
          step.kind === 'crash'
            ? step.inProcess
              ? runCrashInProcess(step, wctx)
              : runCrash(step, wctx)
            : step.kind === 'concurrent'
              ? runConcurrent(step, wctx)
              : runMixedWriters(step, wctx, (sqlite3 as { path: string }).path);
        // On timeout the step's processes are killed: left running they wrote into the next case's time and files.
        const verdict = await withTimeout(running, budget, label).catch((err: unknown) => {
          abort.abort();
          throw err;
        });
        if (!verdict.ok) {
          const replay = ctx.runSeed === undefined ? '' : ` (replay with --seed ${ctx.runSeed})`;
          throw new StepFailure({ status: 'failed', at: step.pos, step: label, message: verdict.message + replay });
        }
        for (const [k, v] of Object.entries(verdict.metrics)) state.metrics[k] = (state.metrics[k] ?? 0) + v;
        // What the step wrote, for later steps' expectations (`$length: "${writes}"`): a quick run writes fewer.
        if (step.kind !== 'crash') {
          vars.writes = step.kind === 'concurrent' ? step.writers * step.each : (step.ours + step.cli) * step.each;
          ctx.progress?.writesChecked(progressKey(ctx), vars.writes as number);
        }
        break;
      }
      case 'subagent': {
        const r = await withTimeout(
          runSubagent(step, {
            factory: ctx.factory,
            backend: state.backend!,
            env,
            vars,
            ...(ctx.workerCommand ? { self: ctx.workerCommand } : {}),
            ...(ctx.checkerBug ? { checkerBug: ctx.checkerBug } : {}),
            timeoutMs: ctx.stepTimeoutMs,
          }),
          ctx.stepTimeoutMs * 2,
          'subagent session',
        );
        if (r.verdict)
          throw new StepFailure({
            status: 'failed',
            at: step.pos,
            step: 'subagent',
            message: r.verdict,
            expected: step.findings,
            seen: { findings: r.findings, message: r.message },
          });
        state.metrics['subagent sessions checked'] = (state.metrics['subagent sessions checked'] ?? 0) + 1;
        if (step.save) vars[step.save] = { message: r.message, instructions: r.instructions, segment: r.segment };
        break;
      }
      default:
        assertNever(step);
    }
  }
}

async function runOp(step: OpStep, vars: Vars, ctx: CaseContext, backend: Backend): Promise<void> {
  const args = interpolate(step.args, vars) as Record<string, unknown>;
  const spec = OPS[step.op].args;
  // Most cases work on the run the runner created; agent calls need it only in execution scope.
  if (
    'run' in spec &&
    args.run === undefined &&
    vars.run !== undefined &&
    (!('scope' in spec) || args.scope === 'execution')
  )
    args.run = vars.run;
  const actor = toActor(step, args, vars);
  const label = `${step.op} ${show(args).slice(0, 120)}`;
  let result: unknown;
  try {
    result = await withTimeout(backend.call(step.op, args as OpArgs[OpName], actor), ctx.stepTimeoutMs, label);
  } catch (err) {
    const e = toProseError(err);
    if (
      (!(err instanceof ProseError) && !(err && typeof err === 'object' && 'code' in err)) ||
      ERRORED_CODES.has(e.code)
    ) {
      throw new StepFailure({
        status: 'errored',
        at: step.pos,
        step: label,
        error: serializeError(e),
        evidence: evidenceOf(err),
      });
    }
    if (step.error === e.code) {
      if (step.message !== undefined && !new RegExp(step.message, 'u').test(e.message)) {
        throw new StepFailure({
          status: 'failed',
          at: step.pos,
          step: label,
          message: `error ${e.code} as expected, but its message ${show(e.message)} does not match /${step.message}/`,
          expected: step.message,
          seen: e.message,
        });
      }
      return;
    }
    const expected = step.error ? `error ${step.error}` : 'success';
    throw new StepFailure({
      status: 'failed',
      at: step.pos,
      step: label,
      message: `expected ${expected}, got ${e.code}: ${e.message}`,
      expected,
      seen: serializeError(e),
    });
  }
  if (step.error) {
    throw new StepFailure({
      status: 'failed',
      at: step.pos,
      step: label,
      message: `expected error ${step.error}, but the call succeeded with ${show(result)}`,
      expected: step.error,
      seen: result,
    });
  }
  if (step.expect !== undefined) {
    const expected = interpolate(step.expect, vars);
    const diff = match(expected, result);
    if (diff)
      throw new StepFailure({ status: 'failed', at: step.pos, step: label, message: diff, expected, seen: result });
  }
  if (step.save) vars[step.save] = result;
}

function toActor(step: OpStep, args: Record<string, unknown>, vars: Vars): Actor {
  if (step.actor === undefined) return defaultActor(step.op, args as OpArgs[OpName]);
  if (step.actor === 'vm') return { role: 'vm' };
  const a = interpolate(step.actor, vars) as { binding?: string; agent?: string; executionId?: number | null };
  return { role: 'subagent', ...a };
}

function progressKey(ctx: CaseContext): string {
  return `${ctx.factory.name} ${ctx.caseId ?? ''}`.trimEnd();
}

function assertNever(x: never): never {
  throw new ProseError('E_CASE', `unknown step ${JSON.stringify(x)}`);
}

function evidenceOf(err: unknown): string | undefined {
  if (err instanceof ProseError) return err.hint;
  return err instanceof Error ? err.stack?.split('\n').slice(0, 4).join('\n') : undefined;
}

export type { SourcePos };
