import type { SourcePos } from '../source-pos.ts';
import { runConcurrent } from '../run-workers.ts';
import type { Workload } from '../workload.ts';
import type { StepKind } from './step-kind.ts';
import { countWrites, runWorkerStep, workerFields } from './worker-steps.ts';

/** `writers` processes write `each` items at once, then nothing may be lost or doubled (the concurrency area). */
export interface ConcurrentStep {
  kind: 'concurrent';
  pos: SourcePos;
  workload: Workload;
  writers: number;
  each: number;
}

export const concurrentStep: StepKind<ConcurrentStep> = {
  kind: 'concurrent',
  key: 'concurrent',
  load(node, site) {
    const { workload, int } = workerFields(node, 'concurrent', site, ['workload', 'writers', 'each']);
    return { kind: 'concurrent', pos: site.pos, workload, writers: int('writers'), each: int('each') };
  },
  async run(step, r) {
    const budgetMs = r.ctx.stepTimeoutMs * step.writers;
    await runWorkerStep(step, r, { label: `concurrent ${step.workload}`, budgetMs }, (w) => runConcurrent(step, w));
    countWrites(r, step.writers * step.each);
  },
  explain: (step) =>
    `concurrent: ${step.writers} worker processes write ${step.each} ${step.workload} items each ` +
    '(their messages are not shown)',
  quick: (step, q) => ({ ...step, writers: Math.min(step.writers, q.writers), each: Math.min(step.each, q.each) }),
  implies: () => ['multi-process', 'concurrent-writers'],
  workers: 'timed',
  // Its writers start at once but take turns on the storage's one lock (run-suite.ts weightOf says more).
  slots: (_step, jobs) => (jobs > 1 ? 0.5 : 1),
};
