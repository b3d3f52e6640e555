import type { BaseStep } from './base-step.ts';
import type { Backend, BackendFactory } from '../core/backend.ts';
import type { Decisions } from '../core/decisions.ts';
import type { ProgressSink } from './progress.ts';
import type { FindingsFilter } from './run-subagent.ts';
import type { Vars } from './template.ts';

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
  /** Aborted when the run's deadline passes (test --deadline): worker steps kill their processes and give up. */
  runSignal?: AbortSignal;
  /** The platform the case runs on (default: this process's); a case that cannot hold there is skipped. */
  platform?: NodeJS.Platform;
}

/** Sees the case unfold: `note` for what the runner does on its own, `step` before each step of the case. */
export interface StepObserver {
  note(text: string): void;
  step(step: BaseStep, vars: Vars): void;
}

/** What the steps of one case share as they run: the open backend (none between a close and a reopen) and counts. */
export type RunState = {
  backend: Backend | undefined;
  layoutChecks: number;
  layoutNotApplicable: number;
  metrics: Record<string, number>;
};

/** Names the case in progress reports. */
export function progressKey(ctx: CaseContext): string {
  return `${ctx.factory.name} ${ctx.caseId ?? ''}`.trimEnd();
}
