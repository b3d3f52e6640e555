import type { CapabilityReport } from '../probes/capability-report.ts';
import { show } from '../match.ts';
import type { CaseResult } from '../outcome.ts';
import { CLAIM_LEGEND, claimCell, claimLine, claimsTable, isFailure, needsAttention } from './claims.ts';
import { anchor } from './markdown.ts';
import { buildMatrix, cellText } from './matrix.ts';
import type { Reporter, Write } from './reporter.ts';

/** A self-contained HTML page: the matrix, each cell linking to its failures with expected vs seen. */
export function htmlReporter(write: Write): Reporter {
  const claims: CapabilityReport[] = [];
  const skipped: string[] = [];
  return {
    header: (h) => {
      if (h.probes === 'skipped') skipped.push(h.backend.name);
    },
    capabilities: (r) => claims.push(r),
    result: () => undefined,
    footer: () => undefined,
    finish: (all) => write(htmlReport(all, claims, skipped)),
  };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function htmlReport(
  all: readonly CaseResult[],
  claims: readonly CapabilityReport[] = [],
  probesSkipped: readonly string[] = [],
): string {
  const m = buildMatrix(all);
  const rows = m.areas.map(
    (a) =>
      `<tr><th>${esc(a)}</th>${m.backends
        .map((b) => {
          const c = m.cell(a, b);
          const bad = c.failed + c.errored + c.xpassed > 0;
          const cls = c.total === 0 ? 'none' : bad ? 'bad' : c.passed === 0 ? 'skip' : 'ok';
          const text = esc(cellText(c));
          return `<td class="${cls}">${bad ? `<a href="#${anchor(b, a)}">${text}</a>` : text}</td>`;
        })
        .join('')}</tr>`,
  );
  const details = all
    .filter((r) => ['failed', 'errored', 'xpassed'].includes(r.outcome.status))
    .map((r) => {
      const o = r.outcome;
      const body =
        o.status === 'failed'
          ? `${esc(o.at.file)}:${o.at.line}<br><code>${esc(o.step)}</code><br>${esc(o.message)}${o.expected !== undefined ? `<br>expected <code>${esc(show(o.expected))}</code>` : ''}${o.seen !== undefined ? `<br>seen <code>${esc(show(o.seen))}</code>` : ''}`
          : o.status === 'errored'
            ? `errored: ${esc(o.error.code)}: ${esc(o.error.message)}`
            : o.status === 'xpassed'
              ? `passed although expected to fail: ${esc(o.reason)}`
              : '';
      return `<li id="${anchor(r.backend, r.area)}"><b>${esc(r.backend)} ${esc(r.id)}</b><br>${body}</li>`;
    });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>prose-state compliance</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}
td.ok{background:#e6f4e6}td.bad{background:#fbe3e3}td.skip{background:#eee}code{font-size:12px}</style></head>
<body><h1>prose-state compliance</h1>
<table><tr><th>area</th>${m.backends.map((b) => `<th>${esc(b)}</th>`).join('')}</tr>
${rows.join('\n')}
</table>
<p>Cells: passed/run; F failed, E errored, X! unexpected pass, x expected failure, s skipped.</p>
${htmlClaims(claims, probesSkipped)}<h2>Failures</h2><ul>${details.join('\n') || '<li>none</li>'}</ul>
</body></html>
`;
}

/** Capabilities x backends (contradictions red, unprobed grey), then every verdict that is not a plain ok. */
function htmlClaims(claims: readonly CapabilityReport[], probesSkipped: readonly string[]): string {
  const skipped = probesSkipped.length
    ? `<p>Capability probes skipped (--no-probe) for ${probesSkipped.map(esc).join(', ')}.</p>\n`
    : '';
  if (!claims.length) return skipped;
  const t = claimsTable(claims);
  const rows = t.capabilities.map(
    (cap) =>
      `<tr><th>${esc(cap)}</th>${t.backends
        .map((b) => {
          const v = t.cell(cap, b);
          const cls = !v
            ? 'none'
            : isFailure(v) || v.verdict === 'errored'
              ? 'bad'
              : v.verdict === 'unprobed' || !v.declared
                ? 'skip'
                : 'ok';
          return `<td class="${cls}">${esc(claimCell(v))}</td>`;
        })
        .join('')}</tr>`,
  );
  const notes = claims.flatMap((r) =>
    r.verdicts.filter(needsAttention).map((v) => `<li><b>${esc(r.backend)}</b> ${esc(claimLine(v))}</li>`),
  );
  return `${skipped}<h2>Capability claims</h2>
<table><tr><th>capability</th>${t.backends.map((b) => `<th>${esc(b)}</th>`).join('')}</tr>
${rows.join('\n')}
</table>
<p>${esc(CLAIM_LEGEND)}</p>
${notes.length ? `<ul>${notes.join('\n')}</ul>\n` : ''}`;
}
