import type { Counts } from '../outcome.ts';

/**
 * The closing count line. CI reads its `N passed, N failed` start, so that form stays; an errored case is not a
 * failure of the backend but of the run, so it is counted on its own, and named only when there is one (an ordinary
 * run's line is unchanged). An unexpected pass counts as failed, an expected failure as skipped.
 */
export function summaryLine(c: Counts): string {
  const errored = c.errored ? `, ${c.errored} errored` : '';
  return `conformance: ${c.passed} passed, ${c.failed + c.xpassed} failed${errored}, ${c.skipped + c.xfailed} skipped`;
}
