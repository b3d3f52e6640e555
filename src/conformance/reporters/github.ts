import { show } from '../match.ts';
import { countOutcomes, type CaseResult } from '../outcome.ts';
import { isFailure } from './claims.ts';
import type { Reporter, ReporterOptions, Write } from './reporter.ts';
import { unreachable } from '../unreachable.ts';
import { summaryLine } from './summary-line.ts';

/**
 * GitHub Actions annotations: one `::error file=...,line=...,title=...::message` line per failed, errored or
 * unexpectedly passing case (at the failing step's line when the failure has one, else at the case's `- id:` line)
 * and per contradicted capability claim, then a plain count line. Nothing for cases that passed or were skipped.
 */
export function githubReporter(write: Write, opts: ReporterOptions = {}): Reporter {
  return {
    header: () => undefined,
    capabilities: (r) => {
      for (const v of r.verdicts)
        if (isFailure(v))
          write(
            command({ title: `${r.backend} capability ${v.capability}` }, `${v.verdict}: ${v.detail ?? ''}`.trim()),
          );
    },
    result: (r) => {
      const line = annotation(r, opts.sources?.get(r.id));
      if (line) write(line);
    },
    footer: () => undefined,
    finish: (all) => {
      const c = countOutcomes(all);
      write(`${summaryLine(c)}\n`);
    },
  };
}

function annotation(r: CaseResult, source: { file: string; line: number } | undefined): string | undefined {
  const o = r.outcome;
  const title = `${r.backend} ${r.id}`;
  const where = (at?: { file: string; line: number }): Record<string, string> => {
    const p = at ?? source;
    return p ? { file: p.file, line: String(p.line) } : {};
  };
  switch (o.status) {
    case 'failed': {
      const seen = [
        o.expected !== undefined ? `expected ${show(o.expected)}` : '',
        o.seen !== undefined ? `seen ${show(o.seen)}` : '',
      ].filter(Boolean);
      return command(
        { ...where(o.at), title },
        [`${o.step}: ${o.message}`, ...seen, ...(r.spec ? [`spec: ${r.spec}`] : [])].join('\n'),
      );
    }
    case 'errored':
      return command({ ...where(o.at), title: `${title} errored` }, `${o.error.code}: ${o.error.message}`);
    case 'xpassed':
      return command(
        { ...where(), title: `${title} passed unexpectedly` },
        `expected to fail (${o.reason}); remove its entry from the --expect file`,
      );
    case 'passed':
    case 'skipped':
    case 'xfailed':
      return undefined;
    default:
      return unreachable(o, 'outcome');
  }
}

/** A workflow command line; GitHub reads `%`, CR and LF escaped in both parts, and `:` and `,` in properties. */
function command(props: Record<string, string>, message: string): string {
  const data = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const prop = (s: string) => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
  const list = Object.entries(props)
    .map(([k, v]) => `${k}=${prop(v)}`)
    .join(',');
  return `::error ${list}::${data(message)}\n`;
}
