import { isAlias, isMap, isScalar, type Node } from 'yaml';
import type { Capability } from '../../core/capabilities.ts';
import type { BaseStep } from '../base-step.ts';
import type { SourcePos } from '../source-pos.ts';
import { caseError, type Parsed } from '../case-yaml.ts';
import type { QuickCounts } from '../quick-counts.ts';
import { clockStep } from './clock.ts';
import { concurrentStep } from './concurrent.ts';
import { crashStatesStep } from './crash-states.ts';
import { crashStep } from './crash.ts';
import { layoutStep } from './layout.ts';
import { mixedWritersStep } from './mixed-writers.ts';
import { opStep } from './op.ts';
import { plantStep } from './plant.ts';
import { renderStep } from './render.ts';
import { repeatStep } from './repeat.ts';
import { restartStep } from './restart.ts';
import type { StepKind, StepRun } from './step-kind.ts';
import { subagentStep } from './subagent.ts';

/**
 * Every step kind, once. The loader tries their keys in this order and reads a mapping with none of them as an op;
 * a case that lacks capabilities its steps imply is told the first one missing, in this order.
 */
export const STEP_KINDS = {
  restart: restartStep,
  repeat: repeatStep,
  layout: layoutStep,
  plant: plantStep,
  crash: crashStep,
  'crash-states': crashStatesStep,
  concurrent: concurrentStep,
  'mixed-writers': mixedWritersStep,
  subagent: subagentStep,
  render: renderStep,
  clock: clockStep,
  op: opStep,
};

type StepOf<K> = K extends StepKind<infer S> ? S : never;
export type Step = StepOf<(typeof STEP_KINDS)[keyof typeof STEP_KINDS]>;
export type StepKindName = Step['kind'];

const KINDS = Object.values(STEP_KINDS) as StepKind<Step>[];

/**
 * A step as the union. Every step, nested ones too, was read by loadStep below, so its kind is one of the table's;
 * step files and the runner's context see it only as a BaseStep.
 */
function asStep(step: BaseStep): Step {
  return step as Step;
}

/** The kind of a step: its handlers, typed for steps of any kind (each kind's handlers see only their own). */
function kindOf(step: BaseStep): StepKind<Step> {
  return STEP_KINDS[asStep(step).kind] as StepKind<Step>;
}

/** Reads one step; a step may be an alias of one written earlier in the file. */
export function loadStep(p: Parsed, aliased: Node, field: string): Step {
  // `- *seed-run`: the same planted state in several cases.
  const node = (isAlias(aliased) ? aliased.resolve(p.doc) : aliased) as Node;
  const line = aliased?.range ? p.lc.linePos(aliased.range[0]).line : 1;
  const pos: SourcePos = { file: p.file, line };
  if (isScalar(node)) {
    const word = KINDS.find((k) => k.loadWord && k.key === node.value);
    if (word) return word.loadWord!(pos);
  }
  if (!isMap(node)) {
    const maps = [opStep, ...KINDS.filter((k) => !k.loadWord && k !== opStep)].map((k) => `${k.key}:`);
    const words = KINDS.filter((k) => k.loadWord).map((k) => k.key);
    throw caseError(p.file, line, `a step is a mapping (${maps.join(', ')}) or the word ${words.join(', ')}`, field);
  }
  const kind = KINDS.find((k) => node.has(k.key)) ?? STEP_KINDS.op;
  return kind.load(node, { p, field, pos, loadStep: (n, f) => loadStep(p, n, f) });
}

/** Runs one step. */
export function runStep(step: BaseStep, r: StepRun): Promise<void> {
  return kindOf(step).run(asStep(step), r);
}

/** The line `test --explain` prints for a step. */
export function explainStep(step: BaseStep, show: (v: unknown) => string): string {
  return `\nstep ${step.pos.file}:${step.pos.line}: ${kindOf(step).explain(asStep(step), show)}`;
}

/** The steps as a quick run (test --quick) caps them. */
export function quickSteps(steps: Step[], q: QuickCounts): Step[] {
  return steps.map((s) => kindOf(s).quick?.(s, q, (inner) => quickSteps(inner.map(asStep), q)) ?? s);
}

/** Every step, with the steps nested in repeats. */
export function allSteps(steps: Step[]): Step[] {
  return steps.flatMap((s) => (s.kind === 'repeat' ? [s, ...allSteps(s.steps.map(asStep))] : [s]));
}

/** The capabilities a case's steps need whatever it checks, each with the kind of step that needs it. */
export function impliedCapabilities(steps: Step[]): [Capability, string][] {
  const all = allSteps(steps);
  return KINDS.flatMap((k) =>
    all
      .filter((s) => s.kind === k.kind)
      .flatMap((s) => (k.implies?.(s) ?? []).map((c): [Capability, string] => [c, k.kind])),
  );
}

/** How the steps use worker processes of the CLI: 'timed' when one of them is timed, else 'untimed' or undefined. */
export function stepWorkers(steps: Step[]): 'timed' | 'untimed' | undefined {
  const uses = allSteps(steps).map((s) => kindOf(s).workers);
  return uses.includes('timed') ? 'timed' : uses.includes('untimed') ? 'untimed' : undefined;
}

/** The slots the steps take with `jobs` jobs: the most any step's kind asks for, one where none has a say. */
export function stepSlots(steps: Step[], jobs: number): number {
  const asks = allSteps(steps).flatMap((s) => kindOf(s).slots?.(s, jobs) ?? []);
  return asks.length ? Math.max(...asks) : 1;
}
