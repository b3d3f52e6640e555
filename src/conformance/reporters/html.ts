import { show } from '../match.ts';
import type { CaseResult } from '../outcome.ts';
import { anchor } from './markdown.ts';
import { buildMatrix, cellText } from './matrix.ts';
import type { Reporter, Write } from './reporter.ts';

/** A self-contained HTML page: the matrix, each cell linking to its failures with expected vs seen. */
export function htmlReporter(write: Write): Reporter {
  return { header: () => undefined, result: () => undefined, footer: () => undefined, finish: (all) => write(htmlReport(all)) };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function htmlReport(all: readonly CaseResult[]): string {
  const m = buildMatrix(all);
  const rows = m.areas.map((a) => `<tr><th>${esc(a)}</th>${m.backends.map((b) => {
    const c = m.cell(a, b);
    const bad = c.failed + c.errored + c.xpassed > 0;
    const cls = c.total === 0 ? 'none' : bad ? 'bad' : c.passed === 0 ? 'skip' : 'ok';
    const text = esc(cellText(c));
    return `<td class="${cls}">${bad ? `<a href="#${anchor(b, a)}">${text}</a>` : text}</td>`;
  }).join('')}</tr>`);
  const details = all.filter((r) => ['failed', 'errored', 'xpassed'].includes(r.outcome.status)).map((r) => {
    const o = r.outcome;
    const body = o.status === 'failed' ? `${esc(o.at.file)}:${o.at.line}<br><code>${esc(o.step)}</code><br>${esc(o.message)}${o.expected !== undefined ? `<br>expected <code>${esc(show(o.expected))}</code>` : ''}${o.seen !== undefined ? `<br>seen <code>${esc(show(o.seen))}</code>` : ''}`
      : o.status === 'errored' ? `errored: ${esc(o.error.code)}: ${esc(o.error.message)}` : o.status === 'xpassed' ? `passed although expected to fail: ${esc(o.reason)}` : '';
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
<h2>Failures</h2><ul>${details.join('\n') || '<li>none</li>'}</ul>
</body></html>
`;
}
