import type { CapabilityReport } from '../probes/capability-report.ts';
import { CLAIM_LEGEND, claimCell, claimLine, claimsTable, isFailure, needsAttention } from './claims.ts';
import { esc } from './html-escape.ts';

/** Capabilities x backends (contradictions red, unprobed grey), then every verdict that is not a plain ok. */
export function htmlClaims(claims: readonly CapabilityReport[], probesSkipped: readonly string[]): string {
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
