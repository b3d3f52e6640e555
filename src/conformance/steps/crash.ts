import type { SourcePos } from '../source-pos.ts';
import { caseError } from '../case-yaml.ts';
import { runCrashInProcess } from '../run-crash-in-process.ts';
import { runCrash } from '../run-workers.ts';
import type { Workload } from '../workload.ts';
import type { StepKind } from './step-kind.ts';
import { runWorkerStep, workerFields } from './worker-steps.ts';

/** Kill a writer process at `kills` seeded points, reopening and checking after each (the crash area). */
export interface CrashStep {
  kind: 'crash';
  pos: SourcePos;
  workload: Workload;
  kills: number;
  /** The longest wait, in ms, between the writer being ready and the kill. */
  maxDelayMs: number;
  /**
   * `in-process: true`: no writer process; the runner writes, then drops the backend without closing it at each
   * seeded point and opens a fresh instance on the same storage (a simulated crash), so `durable` is checked on
   * backends that cannot run in a second process.
   */
  inProcess: boolean;
}

export const crashStep: StepKind<CrashStep> = {
  kind: 'crash',
  key: 'crash',
  load(node, site) {
    const { p, field, pos } = site;
    const { body, workload, int } = workerFields(node, 'crash', site, [
      'workload',
      'kills',
      'max-delay-ms',
      'in-process',
    ]);
    const inProcess = body['in-process'] ?? false;
    if (typeof inProcess !== 'boolean')
      throw caseError(p.file, pos.line, '"in-process" must be true or false', `${field}.crash.in-process`);
    return { kind: 'crash', pos, workload, kills: int('kills'), maxDelayMs: int('max-delay-ms', 40), inProcess };
  },
  run: (step, r) =>
    runWorkerStep(
      step,
      r,
      {
        label: `crash${step.inProcess ? ' in-process' : ''} ${step.workload}`,
        budgetMs: r.ctx.stepTimeoutMs * step.kills,
        inProcess: step.inProcess,
      },
      (wctx) => (step.inProcess ? runCrashInProcess(step, wctx) : runCrash(step, wctx)),
    ),
  explain: (step) =>
    step.inProcess
      ? `crash in-process: the runner writes the ${step.workload} workload and drops the backend unclosed ` +
        `${step.kills} times, opening a fresh instance each time`
      : `crash: a worker process writes the ${step.workload} workload and is killed ${step.kills} times ` +
        '(its messages are not shown)',
  quick: (step, q) => ({ ...step, kills: Math.min(step.kills, q.kills) }),
  // A crash simulated in the runner's process needs no second process; a killed writer process does.
  implies: (step) => (step.inProcess ? ['durable'] : ['durable', 'multi-process']),
  workers: 'timed',
  slots: () => 1,
};
