import fc from 'fast-check';
import type { ErrorCode } from '../../src/core/errors.ts';
import type { CapabilityReport } from '../../src/conformance/probes/capability-report.ts';
import type { CaseResult, Outcome } from '../../src/conformance/outcome.ts';
import { countOutcomes } from '../../src/conformance/outcome.ts';
import type { Reporter } from '../../src/conformance/reporters/reporter.ts';
import type { RunHeader } from '../../src/conformance/run-suite.ts';
import { hostileText } from './_arbitraries.ts';

/** Hostile text, with what attacks reports in particular: terminal escapes, tags, CDATA ends, TAP and GitHub commands. */
export const reportText = fc
  .array(
    fc.oneof(
      hostileText,
      fc.constantFrom(
        '\u001b[2J',
        '\u001b]0;title\u0007',
        '\u009b31m',
        '\u007f',
        '<img src=x onerror=alert(1)>',
        ']]>',
        '\uFFFE',
        '\uFFFF',
        '\nBail out! forged',
        '\nok 99 - forged',
        '\nnot ok 98 - forged # SKIP',
        ' # TODO forged',
        '\n::add-mask::x',
        '\n::error::forged',
        '&amp;',
        '|',
        '`',
      ),
    ),
    { maxLength: 4 },
  )
  .map((parts) => parts.join(''));

/** A run of one backend whose every field that comes from a backend or a case holds `s`, one case per outcome. */
export function hostileRun(s: string): { header: RunHeader; claims: CapabilityReport; results: CaseResult[] } {
  const header: RunHeader = {
    suite: { name: s, version: s },
    backend: { name: s, kind: s, capabilities: [s], description: s, settings: { [s]: s } },
    edition: 'v0',
    decisions: {} as RunHeader['decisions'],
    cases: 6,
    seed: 1,
    probes: 'run',
  };
  const at = { file: s, line: 3 };
  const outcomes: Outcome[] = [
    { status: 'passed', layoutChecks: 0, layoutNotApplicable: 0 },
    { status: 'failed', at, step: s, message: s, expected: s, seen: { [s]: s } },
    { status: 'skipped', reason: s },
    { status: 'errored', at, step: s, error: { code: s as ErrorCode, message: s, hint: s }, evidence: s },
    { status: 'xfailed', reason: s, failure: { status: 'skipped', reason: s } },
    { status: 'xpassed', reason: s },
  ];
  const results = outcomes.map((outcome, i) => ({
    backend: s,
    id: `${s}/${i}`,
    area: s,
    title: s,
    spec: s,
    durationMs: 1,
    outcome,
  }));
  const capability = s as CapabilityReport['verdicts'][number]['capability'];
  const claims: CapabilityReport = {
    backend: s,
    durationMs: 1,
    verdicts: [
      { capability, declared: true, works: false, verdict: 'claimed-but-broken', detail: s },
      { capability, declared: true, works: null, verdict: 'errored', detail: s },
      { capability, declared: true, works: null, verdict: 'unprobed', detail: s },
      { capability, declared: false, works: null, verdict: 'ok', detail: s },
    ],
  };
  return { header, claims, results };
}

/** Tells a reporter the whole hostile run, as the runner would. */
export function feed(reporter: Reporter, s: string): void {
  const { header, claims, results } = hostileRun(s);
  reporter.header(header);
  reporter.capabilities(claims);
  for (const r of results) reporter.result(r);
  reporter.footer(s, countOutcomes(results), { [s]: 1, cutShort: { by: s, notRun: 1 } });
  reporter.finish(results);
}
