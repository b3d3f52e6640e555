import type { Node, YAMLMap } from 'yaml';
import type { BackendEnv } from '../../core/backend.ts';
import type { Capability } from '../../core/capabilities.ts';
import { ProseError } from '../../core/errors.ts';
import type { BaseStep } from '../base-step.ts';
import type { SourcePos } from '../source-pos.ts';
import type { Parsed } from '../case-yaml.ts';
import type { Outcome } from '../outcome.ts';
import type { QuickCounts } from '../quick-counts.ts';
import type { CaseContext, RunState } from '../run-context.ts';
import type { Vars } from '../template.ts';

/** Where a step is written, and how its loader reads the steps nested in it (repeat). */
export interface StepSite {
  p: Parsed;
  /** The field path of the step (`case-id.steps[2]`), for errors. */
  field: string;
  pos: SourcePos;
  loadStep(node: Node, field: string): BaseStep;
}

/** What a step's runner works on: the case's context, its storage, its variables and the backend it holds. */
export interface StepRun {
  ctx: CaseContext;
  env: BackendEnv;
  vars: Vars;
  state: RunState;
  runSteps(steps: BaseStep[]): Promise<void>;
}

/**
 * One step kind, whole: how it is read from YAML, run, explained, capped by a quick run, and what it asks of the
 * backend and of the scheduler. The dispatcher (step-kinds.ts) lists every kind once.
 */
export interface StepKind<S extends BaseStep> {
  kind: S['kind'];
  /** The YAML key that marks a step of this kind (the dispatcher tries kinds in table order). */
  key: string;
  load(node: YAMLMap, site: StepSite): S;
  /** The step written as its key alone (`- restart`), where the kind allows that. */
  loadWord?(pos: SourcePos): S;
  run(step: S, r: StepRun): Promise<void>;
  /** What `test --explain` prints for the step, after `step FILE:LINE: `. */
  explain(step: S, show: (v: unknown) => string): string;
  /** The step capped by a quick run (test --quick); absent: it runs as written. */
  quick?(step: S, q: QuickCounts, quickSteps: (steps: BaseStep[]) => BaseStep[]): S;
  /** The capabilities the step needs whatever the case checks (the case must list them in `requires`). */
  implies?(step: S): Capability[];
  /** Whether the step starts worker processes of the CLI, and whether the run times them (scheduled apart). */
  workers?: 'timed' | 'untimed';
  /** The slots the step takes in a run with `jobs` jobs, where the kind has a say (run-suite.ts weighs the case). */
  slots?(step: S, jobs: number): number;
}

/** A failure of one step, thrown inside the case and turned into an outcome by `runCase`. */
export class StepFailure {
  constructor(readonly outcome: Outcome) {}
}

/** Adds a step's counts to the case's metrics. */
export function addMetrics(state: RunState, metrics: Record<string, number>): void {
  for (const [k, v] of Object.entries(metrics)) state.metrics[k] = (state.metrics[k] ?? 0) + v;
}

/** What an errored outcome shows besides the error: a contract error's hint, or the top of a stack. */
export function evidenceOf(err: unknown): string | undefined {
  if (err instanceof ProseError) return err.hint;
  return err instanceof Error ? err.stack?.split('\n').slice(0, 4).join('\n') : undefined;
}
