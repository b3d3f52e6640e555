import type { Reporter, Write } from './reporter.ts';

/**
 * The source report: JSON Lines with a header per backend (suite version, backend, pinned decisions), one line per
 * case and a footer with the counts. A run that was cut off has no footer. Its schema: conformance/schema/report.schema.json.
 */
export function jsonLinesReporter(write: Write): Reporter {
  return {
    header: (h) => write(JSON.stringify({ type: 'header', ...h }) + '\n'),
    result: (r) => {
      const { outcome, ...rest } = r;
      write(JSON.stringify({ type: 'case', ...rest, ...outcome }) + '\n');
    },
    footer: (backend, counts, extra) => write(JSON.stringify({ type: 'footer', backend, counts, ...extra }) + '\n'),
    finish: () => undefined,
  };
}
