import type { CapabilityReport } from '../probes/capability-report.ts';
import { show } from '../match.ts';
import type { CaseResult } from '../outcome.ts';
import { CLAIM_LEGEND, claimCell, claimLine, claimsTable, needsAttention } from './claims.ts';
import { buildMatrix, cellText, editionRow } from './matrix.ts';
import type { Reporter, Write } from './reporter.ts';
import type { RunHeader } from '../run-suite.ts';
import type { NotJudged } from '../edition-runs.ts';
import { quickNote } from './run-notes.ts';
import { unreachable } from '../unreachable.ts';
import { escapeMarkdown as md } from './escape-markdown.ts';

/** The compliance matrix as Markdown: each cell links to that area's failures on that backend, with expected vs seen. */
export function markdownReporter(write: Write): Reporter {
  const headers: RunHeader[] = [];
  const claims: CapabilityReport[] = [];
  const left: NotJudged[] = [];
  return {
    header: (h) => headers.push(h),
    notJudged: (n) => left.push(n),
    capabilities: (r) => claims.push(r),
    result: () => undefined,
    footer: () => undefined,
    finish: (all) => write(markdownReport(all, headers, claims, left)),
  };
}

export const anchor = (backend: string, area: string) =>
  `${backend}-${area}`.toLowerCase().replace(/[^a-z0-9-]+/g, '-');

export function markdownReport(
  all: readonly CaseResult[],
  headers: readonly RunHeader[] = [],
  claims: readonly CapabilityReport[] = [],
  left: readonly NotJudged[] = [],
): string {
  const m = buildMatrix(all);
  const editions = editionRow(m.backends, headers);
  const out = [
    '# prose-state compliance report',
    '',
    ...headers.map(headerLine),
    ...left.map((n) => `- **${md(n.backend)}**: not judged in edition ${md(n.edition)}: ${md(n.reason)}`),
    '',
    '| area | ' + m.backends.map(md).join(' | ') + ' |',
    '|---|' + m.backends.map(() => '---').join('|') + '|',
    ...(editions ? [`| edition | ${editions.map(md).join(' | ')} |`] : []),
  ];
  for (const a of m.areas) {
    out.push(
      `| ${md(a)} | ${m.backends
        .map((b) => {
          const c = m.cell(a, b);
          const t = cellText(c);
          return c.failed + c.errored + c.xpassed > 0 ? `[${t}](#${anchor(b, a)})` : t;
        })
        .join(' | ')} |`,
    );
  }
  out.push('', 'Cells: passed/run; F failed, E errored, X! unexpected pass, x expected failure, s skipped.', '');
  if (claims.length) out.push(...markdownClaims(claims));
  for (const b of m.backends) {
    for (const a of m.areas) {
      const bad = all.filter(
        (r) => r.backend === b && r.area === a && ['failed', 'errored', 'xpassed'].includes(r.outcome.status),
      );
      if (!bad.length) continue;
      out.push(`## ${md(b)} / ${md(a)}`, '', `<a id="${anchor(b, a)}"></a>`, '');
      for (const r of bad) out.push(...detail(r), '');
    }
  }
  const skips = all.filter((r) => r.outcome.status === 'skipped');
  if (skips.length) {
    out.push('## Skipped', '');
    const reasons = new Map<string, number>();
    for (const r of skips)
      if (r.outcome.status === 'skipped')
        reasons.set(`${r.backend}: ${r.outcome.reason}`, (reasons.get(`${r.backend}: ${r.outcome.reason}`) ?? 0) + 1);
    for (const [k, n] of reasons) out.push(`- ${n} x ${md(k)}`);
    out.push('');
  }
  return out.join('\n');
}

/** Capabilities x backends, then every verdict that is not a plain ok, with its detail. */
function markdownClaims(claims: readonly CapabilityReport[]): string[] {
  const t = claimsTable(claims);
  const out = [
    '## Capability claims',
    '',
    '| capability | ' + t.backends.map(md).join(' | ') + ' |',
    '|---|' + t.backends.map(() => '---').join('|') + '|',
  ];
  for (const cap of t.capabilities)
    out.push(`| ${md(cap)} | ${t.backends.map((b) => claimCell(t.cell(cap, b))).join(' | ')} |`);
  out.push('', CLAIM_LEGEND, '');
  const notes = claims.flatMap((r) =>
    r.verdicts.filter(needsAttention).map((v) => `- **${md(r.backend)}** ${md(claimLine(v))}`),
  );
  if (notes.length) out.push(...notes, '');
  return out;
}

function detail(r: CaseResult): string[] {
  const o = r.outcome;
  switch (o.status) {
    case 'failed':
      return [
        `- **${md(r.id)}** (${md(o.at.file)}:${o.at.line}): ${md(o.message)}`,
        `  - step: ${code(o.step)}`,
        ...(o.expected !== undefined ? [`  - expected: ${code(show(o.expected))}`] : []),
        ...(o.seen !== undefined ? [`  - seen: ${code(show(o.seen))}`] : []),
      ];
    case 'errored':
      return [`- **${md(r.id)}** errored: ${md(o.error.code)}: ${md(o.error.message)}`];
    case 'xpassed':
      return [`- **${md(r.id)}** passed although expected to fail (${md(o.reason)})`];
    case 'passed':
    case 'skipped':
    case 'xfailed':
      return [];
    default:
      return unreachable(o, 'outcome');
  }
}

/**
 * A code span that data cannot close early: its fence is one backtick longer than the longest run in the text.
 * Its text is escaped too, since a reader that takes a span for HTML must not find a tag in it.
 */
function code(s: string): string {
  const t = md(s);
  const fence = '`'.repeat(Math.max(0, ...(t.match(/`+/g) ?? []).map((r) => r.length)) + 1);
  return fence.length > 1 ? `${fence} ${t} ${fence}` : `${fence}${t}${fence}`;
}

/** A backend's line in the runs list: its suite, its decisions and how the run was cut. */
function headerLine(h: RunHeader): string {
  const decisions = Object.entries(h.decisions)
    .map(([k, v]) => `${md(k)}=${md(String(v))}`)
    .join(', ');
  const shard = h.shard ? `; shard ${h.shard.index}/${h.shard.count}` : '';
  const probes = h.probes === 'skipped' ? '; capability probes skipped (--no-probe)' : '';
  const quick = quickNote(h) ? `; **${quickNote(h)}**` : '';
  const backend =
    `**${md(h.backend.name)}** (${md(h.backend.kind)}), edition ${md(h.edition)}, ` +
    `suite ${md(h.suite.name)} ${md(h.suite.version)}`;
  return `- ${backend}; decisions: ${decisions}${shard}${probes}${quick}`;
}
