import type { CapabilityReport } from '../probes/capability-report.ts';
import { countOutcomes, type CaseResult } from '../outcome.ts';
import { buildMatrix, cellText, editionRow } from './matrix.ts';
import type { RunHeader } from '../run-suite.ts';
import { notJudgedLine, type NotJudged } from '../edition-runs.ts';
import { prettyClaims, prettyClaimsTotal } from './pretty-claims.ts';
import type { Reporter, Write } from './reporter.ts';
import { cutShortNote, measuredOf, quickNote } from './run-notes.ts';
import { unreachable } from '../unreachable.ts';
import { summaryLine } from './summary-line.ts';
import { escapeTerminal } from './escape-terminal.ts';

/**
 * For people: a line per backend as it starts, every case that needs attention with where and why, then the
 * compliance matrix (areas x backends) and the skip reasons, and a closing count line. Its own text has no control
 * character but the newline, so every write is escaped for the terminal whole: that covers each field of data.
 */
export function prettyReporter(send: Write, opts: { verbose?: boolean } = {}): Reporter {
  const write: Write = (s) => send(escapeTerminal(s));
  const claims: CapabilityReport[] = [];
  const headers: RunHeader[] = [];
  const left: NotJudged[] = [];
  let probesSkipped = false;
  return {
    header: (h) => {
      headers.push(h);
      write(
        `\n${h.backend.name} (${h.backend.kind}, edition ${h.edition}): ${h.cases} cases of ${h.suite.name} ${h.suite.version}\n`,
      );
      write(`  capabilities: ${h.backend.capabilities.join(', ') || '(none)'}\n`);
      if (h.backend.settings)
        write(
          `  settings: ${Object.entries(h.backend.settings)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')}\n`,
        );
      write(
        `  decisions: ${Object.entries(h.decisions)
          .map(([k, v]) => `${k}=${v}`)
          .join(
            ', ',
          )}\n  seed: ${h.seed}${h.tz ? `; TZ ${h.tz}` : ''}${h.shard ? `; shard ${h.shard.index}/${h.shard.count}` : ''}\n`,
      );
      if (h.probes === 'skipped') write('  capability probes: skipped (--no-probe)\n');
      const quick = quickNote(h);
      if (quick) write(`  ${quick}\n`);
      probesSkipped ||= h.probes === 'skipped';
    },
    capabilities: (r) => {
      claims.push(r);
      write(prettyClaims(r));
    },
    result: (r) => prettyResult(r, write, !!opts.verbose),
    footer: (backend, c, extra) => {
      const measured = measuredOf(extra)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ');
      write(
        `  ${backend}: ${c.passed} passed, ${c.failed} failed, ${c.errored} errored, ${c.skipped} skipped, ` +
          `${c.xfailed} xfailed, ${c.xpassed} xpassed${measured ? `; survived: ${measured}` : ''}\n`,
      );
      const cut = cutShortNote(extra);
      if (cut) write(`  ${cut}\n`);
    },
    finish: (all) => write(prettySummary(all, claims, probesSkipped, headers) + notJudgedLines(left)),
    notJudged: (n) => {
      left.push(n);
      write(`\n${notJudgedLine(n)}\n`);
    },
  };
}

export function prettySummary(
  all: readonly CaseResult[],
  claims: readonly CapabilityReport[] = [],
  probesSkipped = false,
  headers: readonly RunHeader[] = [],
): string {
  const m = buildMatrix(all);
  const editions = editionRow(m.backends, headers);
  const rows = [
    ['area', ...m.backends],
    ...(editions ? [['edition', ...editions]] : []),
    ...m.areas.map((a) => [a, ...m.backends.map((b) => cellText(m.cell(a, b)))]),
  ];
  const totals = m.backends.map((b) => countOutcomes(all.filter((r) => r.backend === b)));
  rows.push(['total', ...totals.map((c) => cellText({ ...c }))]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((s, i) => s.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const out = [
    '',
    'Compliance matrix (passed/run; F failed, E errored, X! unexpected pass, x expected failure, s skipped)',
    line(rows[0]!),
    widths.map((w) => '-'.repeat(w)).join('  '),
  ];
  for (const r of rows.slice(1)) out.push(line(r));
  const reasons = new Map<string, number>();
  for (const r of all)
    if (r.outcome.status === 'skipped')
      reasons.set(`${r.backend}: ${r.outcome.reason}`, (reasons.get(`${r.backend}: ${r.outcome.reason}`) ?? 0) + 1);
  if (reasons.size) {
    out.push('', 'Skipped, with reasons:');
    for (const [reason, n] of [...reasons].sort()) out.push(`  ${n} x ${reason}`);
  }
  const c = countOutcomes(all);
  out.push('', summaryLine(c));
  if (claims.length || probesSkipped) out.push(prettyClaimsTotal(claims, probesSkipped));
  out.push('');
  return out.join('\n');
}

/** The backends left out of the run, under the count lines, so a summary read alone still names them. */
function notJudgedLines(left: readonly NotJudged[]): string {
  return left.map((n) => `${notJudgedLine(n)}\n`).join('');
}

/** A case's lines as it is told: every case that needs attention, with where and why (all of them with verbose). */
function prettyResult(r: CaseResult, write: Write, verbose: boolean): void {
  const o = r.outcome;
  switch (o.status) {
    case 'passed': {
      if (verbose) write(`  pass  ${r.id}\n`);
      // Crash states are a budget per case: each case says how much of what was possible it covered.
      const m = o.metrics;
      if (m?.['crash states checked'] !== undefined)
        write(
          `  states ${r.id}: ${statesChecked(m)} crash states checked, ` +
            `${m['file operations recorded']} file operations recorded, ${m['crash-state ms']} ms\n`,
        );
      return;
    }
    case 'skipped':
      if (verbose) write(`  skip  ${r.id}: ${o.reason}\n`);
      return;
    case 'xfailed':
      write(`  xfail ${r.id}: ${o.reason}\n`);
      return;
    case 'xpassed':
      write(`  XPASS ${r.id}: expected to fail (${o.reason}) but passed; remove its entry from the --expect file\n`);
      return;
    // The spec line names the seed sentence or decision the case checks, so a failure says what it departs from.
    case 'failed':
      write(
        `  FAIL  ${r.id}  ${o.at.file}:${o.at.line}\n        ${o.step}\n        ${o.message}\n        spec: ${r.spec}\n`,
      );
      return;
    case 'errored':
      write(
        `  ERROR ${r.id}${o.at ? `  ${o.at.file}:${o.at.line}` : ''}\n        ${o.error.code}: ${o.error.message}\n` +
          (o.evidence ? `        ${o.evidence.split('\n').join('\n        ')}\n` : ''),
      );
      return;
    default:
      unreachable(o, 'outcome');
  }
}

/** All of the crash states, or how many of how many a seeded sample checked. */
function statesChecked(m: Record<string, number>): string {
  const checked = m['crash states checked'];
  const possible = m['crash states possible'];
  return checked === possible ? `all ${checked}` : `${checked} of at most ${possible} (a seeded sample)`;
}
