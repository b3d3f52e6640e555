import { DEFAULT_EDITION, type Edition } from '../../core/editions.ts';
import { ProseError } from '../../core/errors.ts';
import type { Suite } from '../case-types.ts';
import type { SavedReport } from './read-report.ts';

/** What `test --rerun-failed` runs again: per backend of the saved report, the cases that failed or errored. */
export interface RerunPlan {
  /** Backend name -> case ids, in the report's order. Backends with nothing to rerun are absent. */
  failed: Map<string, string[]>;
  /** Run name -> the edition its header judged (a report from before editions: v0), to reopen its backend. */
  editions: Map<string, Edition>;
  seed: number;
  /** The zone the report's run picked or was given (absent in a report from before zones: the seed picks again). */
  tz?: string;
  decisions: Record<string, number | string>;
  /** Backends whose run was cut off: the cases after the cut were never run, so they are not rerun either. */
  cutOff: string[];
}

/**
 * Failed, errored and unexpectedly passing cases of a saved report, refused when the report is of another suite
 * (its case ids and kill points would not mean the same cases).
 */
export function rerunPlan(report: SavedReport, suite: Suite): RerunPlan {
  const failed = new Map<string, string[]>();
  const editions = new Map<string, Edition>();
  for (const run of report.runs) {
    const h = run.header;
    editions.set(h.backend.name, h.edition ?? DEFAULT_EDITION);
    if (h.suite.name !== suite.name || h.suite.version !== suite.version)
      throw new ProseError(
        'E_USAGE',
        `${report.file} is a report of ${h.suite.name} ${h.suite.version}, not of the suite run here (${suite.name} ${suite.version})`,
        {
          location: { file: report.file, line: run.line },
          hint: 'pass --suite DIR of that version, or run the whole suite again to get a report of this one',
        },
      );
    const ids = run.results.filter((r) => ['failed', 'errored', 'xpassed'].includes(r.outcome.status)).map((r) => r.id);
    if (ids.length) failed.set(h.backend.name, [...(failed.get(h.backend.name) ?? []), ...ids]);
  }
  const first = report.runs[0]!.header;
  return {
    failed,
    editions,
    seed: first.seed,
    ...(first.tz !== undefined ? { tz: first.tz } : {}),
    decisions: first.decisions as unknown as Record<string, number | string>,
    cutOff: report.runs.filter((r) => !r.footer).map((r) => r.header.backend.name),
  };
}
