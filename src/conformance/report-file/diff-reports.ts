import type { CaseResult, Status } from '../outcome.ts';
import type { SavedReport } from './read-report.ts';
import { editionChanges } from './report-editions.ts';
import { unreachable } from '../unreachable.ts';

/** How a status reads across two reports: an unexpected pass needs attention like a failure; xfail is a kind of skip. */
export type Standing = 'failing' | 'passing' | 'skipped';
const STANDING: Record<Status, Standing> = {
  failed: 'failing',
  errored: 'failing',
  xpassed: 'failing',
  passed: 'passing',
  skipped: 'skipped',
  xfailed: 'skipped',
};

export interface Change {
  backend: string;
  id: string;
  area: string;
  /** Undefined: the case was not in the old report. */
  before?: Status;
  after: Status;
  /** Why it fails or is skipped now (the message, error or reason), for the lines a person reads. */
  why: string;
}

export interface ReportDiff {
  old: string;
  new: string;
  newlyFailing: Change[];
  newlyPassing: Change[];
  newlySkipped: Change[];
  /** Cases of the old report that the new one does not have (another filter, a cut-off run, a removed case). */
  gone: { backend: string; id: string; before: Status }[];
  /**
   * Backends the two sides judged in different editions: their runs are other runs (`NAME` vs `NAME@EDITION`), so
   * their cases show as gone and new rather than as changes.
   */
  editions: { backend: string; old: string; new: string }[];
}

/** Compares case by case (backend and id): what moved into failing, passing or skipped since the old report. */
export function diffReports(oldReport: SavedReport, newReport: SavedReport): ReportDiff {
  const key = (r: CaseResult) => `${r.backend}\u0000${r.id}`;
  const before = new Map(oldReport.runs.flatMap((run) => run.results.map((r) => [key(r), r] as const)));
  const out: ReportDiff = {
    old: oldReport.file,
    new: newReport.file,
    newlyFailing: [],
    newlyPassing: [],
    newlySkipped: [],
    gone: [],
    editions: editionChanges(oldReport, newReport),
  };
  const seen = new Set<string>();
  for (const r of newReport.runs.flatMap((run) => run.results)) {
    seen.add(key(r));
    const was = before.get(key(r))?.outcome.status;
    const now = STANDING[r.outcome.status];
    if (was !== undefined && STANDING[was] === now) continue;
    const change: Change = {
      backend: r.backend,
      id: r.id,
      area: r.area,
      ...(was ? { before: was } : {}),
      after: r.outcome.status,
      why: why(r),
    };
    (now === 'failing' ? out.newlyFailing : now === 'passing' ? out.newlyPassing : out.newlySkipped).push(change);
  }
  for (const [k, r] of before)
    if (!seen.has(k)) out.gone.push({ backend: r.backend, id: r.id, before: r.outcome.status });
  return out;
}

function why(r: CaseResult): string {
  const o = r.outcome;
  switch (o.status) {
    case 'failed':
      return `${o.at.file}:${o.at.line}: ${o.message}`;
    case 'errored':
      return `${o.error.code}: ${o.error.message}`;
    case 'skipped':
    case 'xfailed':
    case 'xpassed':
      return o.reason;
    case 'passed':
      return '';
    default:
      return unreachable(o, 'outcome');
  }
}
