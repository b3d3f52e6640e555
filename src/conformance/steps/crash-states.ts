import type { SourcePos } from '../source-pos.ts';
import { caseError, stepFields } from '../case-yaml.ts';
import { runCrashStates } from '../run-crash-states.ts';
import { WORKLOADS, type Workload } from '../workload.ts';
import type { StepKind } from './step-kind.ts';
import { runWorkerStep } from './worker-steps.ts';

/**
 * One writer runs `count` items of the workload (from item `start`) under a system-call recorder; every crash state
 * its file operations allow is built and checked, at most `maxStates` of them (a seeded sample beyond).
 */
export interface CrashStatesStep {
  kind: 'crash-states';
  pos: SourcePos;
  workload: Workload;
  start: number;
  count: number;
  maxStates: number;
}

export const crashStatesStep: StepKind<CrashStatesStep> = {
  kind: 'crash-states',
  key: 'crash-states',
  load(node, { p, field, pos }) {
    const allowed = ['workload', 'start', 'count', 'max-states'];
    const { body, int } = stepFields(p, node, 'crash-states', field, pos, allowed);
    if (!WORKLOADS.includes(body.workload as never))
      throw caseError(
        p.file,
        pos.line,
        `workload must be one of ${WORKLOADS.join(', ')}`,
        `${field}.crash-states.workload`,
      );
    return {
      kind: 'crash-states',
      pos,
      workload: body.workload as Workload,
      start: int('start', 0, 0),
      count: int('count', 1),
      maxStates: int('max-states', 1, 200),
    };
  },
  run: (step, r) =>
    runWorkerStep(step, r, { label: `crash-states ${step.workload}`, budgetMs: r.ctx.stepTimeoutMs * 10 }, (w) =>
      runCrashStates(step, w),
    ),
  explain: (step) =>
    `crash-states: a worker process writes ${step.count} ${step.workload} items under strace; up to ` +
    `${step.maxStates} crash states built from its file operations are opened and checked (messages not shown)`,
  quick: (step, q) => ({ ...step, maxStates: Math.min(step.maxStates, q.states) }),
  implies: () => ['durable', 'multi-process'],
  workers: 'timed',
  slots: () => 1,
};
