import type { SerializedError } from '../core/errors.ts';
import type { SourcePos } from './source-pos.ts';

/** What happened to one case on one backend. Checked exhaustively wherever it is read. */
export type Outcome =
  | { status: 'passed'; layoutChecks: number; layoutNotApplicable: number; metrics?: Record<string, number> }
  | { status: 'failed'; at: SourcePos; step: string; message: string; expected?: unknown; seen?: unknown }
  | { status: 'skipped'; reason: string }
  | { status: 'errored'; at?: SourcePos; step?: string; error: SerializedError; evidence?: string }
  /** Failed as the expectations file said it would. */
  | { status: 'xfailed'; reason: string; link?: string; failure: Outcome }
  /** The expectations file said it fails, and it passed: stale expectation or fixed bug. */
  | { status: 'xpassed'; reason: string; link?: string };

export type Status = Outcome['status'];
export const STATUSES: readonly Status[] = ['passed', 'failed', 'skipped', 'errored', 'xfailed', 'xpassed'];

export interface CaseResult {
  backend: string;
  id: string;
  area: string;
  title: string;
  spec: string;
  durationMs: number;
  outcome: Outcome;
}

export type Counts = Record<Status, number> & { total: number };

export function countOutcomes(results: readonly CaseResult[]): Counts {
  const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Counts;
  counts.total = results.length;
  for (const r of results) counts[r.outcome.status] += 1;
  return counts;
}

/** 1 when anything failed or passed unexpectedly, 3 when the harness or a backend broke, else 0. */
export function exitCodeFor(counts: Counts): 0 | 1 | 3 {
  if (counts.failed > 0 || counts.xpassed > 0) return 1;
  if (counts.errored > 0) return 3;
  return 0;
}

/** Sums what passed cases measured (kills survived, writers, inputs tried) for a report footer. */
export function sumMetrics(results: readonly CaseResult[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of results) {
    if (r.outcome.status !== 'passed' || !r.outcome.metrics) continue;
    for (const [k, v] of Object.entries(r.outcome.metrics)) out[k] = (out[k] ?? 0) + v;
  }
  return out;
}

/**
 * Codes that say the backend or the plugin broke (harness and infrastructure errors), not how it answers: a case
 * errors on them and a capability probe counts them as errored, never as a wrong answer.
 */
export const ERRORED_CODES: ReadonlySet<string> = new Set(['E_PLUGIN', 'E_BACKEND', 'E_IO', 'E_CASE']);
