import type { Case, Suite } from './case-types.ts';
import type { QuickCounts } from './quick-counts.ts';
import { quickSteps } from './steps/step-kinds.ts';

/**
 * Small enough that a backend's whole suite answers in seconds, large enough that every worker step still kills,
 * races and reads back: two writers of 50 (100 writes, so a count like anon_101 keeps the pinned width of 3) and
 * three kills.
 */
export const QUICK: QuickCounts = { kills: 3, writers: 2, each: 50, states: 20 };

/** The suite with its crash, crash-states, concurrent and mixed-writers steps capped at `q` (the suite's version stays: it is the same cases). */
export function quickSuite(suite: Suite, q: QuickCounts = QUICK): Suite {
  return { ...suite, cases: suite.cases.map((c): Case => ({ ...c, steps: quickSteps(c.steps, q) })) };
}
