import { ProseError } from '../../core/errors.ts';
import { boundReporter, FIELD_BOUND, JSON_FIELD_BOUND } from './bound-fields.ts';
import { htmlReporter } from './html.ts';
import { jsonLinesReporter } from './json-lines.ts';
import { junitReporter } from './junit.ts';
import { markdownReporter } from './markdown.ts';
import { prettyReporter } from './pretty.ts';
import { githubReporter } from './github.ts';
import type { Reporter, ReporterOptions, Write } from './reporter.ts';
import { tapReporter } from './tap.ts';

const MAKERS: Record<string, (write: Write, opts: ReporterOptions) => Reporter> = {
  pretty: prettyReporter,
  json: jsonLinesReporter,
  tap: tapReporter,
  junit: junitReporter,
  md: markdownReporter,
  html: htmlReporter,
  github: githubReporter,
};

export const REPORTERS = Object.keys(MAKERS);

export function createReporters(name: string, write: Write, opts: ReporterOptions): Reporter {
  const make = MAKERS[name];
  if (!make)
    throw new ProseError('E_USAGE', `unknown reporter "${name}"`, { hint: `reporters: ${REPORTERS.join(', ')}` });
  // Every field a backend or a case gave is bounded before a reporter sees it (bound-fields.ts).
  return boundReporter(make(write, opts), name === 'json' ? JSON_FIELD_BOUND : FIELD_BOUND);
}
