import { countVerdicts } from '../probes/capability-report.ts';
import type { Reporter, Write } from './reporter.ts';

/**
 * The source report: JSON Lines with a header per backend (suite version, backend, pinned decisions, whether the
 * capability claims are probed), the backend's `capabilities` record (every probe verdict), one line per case and a
 * footer with the counts. A run that was cut off has no footer. Schema: conformance/schema/report.schema.json;
 * each field is explained in docs/reports.md.
 */
export function jsonLinesReporter(write: Write): Reporter {
  return {
    header: (h) => write(JSON.stringify({ type: 'header', ...h }) + '\n'),
    capabilities: (r) =>
      write(
        JSON.stringify({
          type: 'capabilities',
          backend: r.backend,
          durationMs: r.durationMs,
          counts: countVerdicts(r.verdicts),
          verdicts: r.verdicts,
        }) + '\n',
      ),
    result: (r) => {
      const { outcome, ...rest } = r;
      write(JSON.stringify({ type: 'case', ...rest, ...outcome }) + '\n');
    },
    footer: (backend, counts, extra) => write(JSON.stringify({ type: 'footer', backend, counts, ...extra }) + '\n'),
    finish: () => undefined,
    notJudged: (n) => write(JSON.stringify({ type: 'not-judged', ...n }) + '\n'),
  };
}
