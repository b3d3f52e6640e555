import { esc } from '../reporters/html-escape.ts';
import type { Change, ReportDiff } from './diff-reports.ts';

const SECTIONS = [
  ['newly failing', 'newlyFailing'],
  ['newly passing', 'newlyPassing'],
  ['newly skipped', 'newlySkipped'],
] as const;

const was = (c: Change) => (c.before ? `was ${c.before}` : 'new case');

/** For a terminal: a count line, then each section with one line per case. */
export function diffText(d: ReportDiff): string {
  const out = [`report diff ${d.old} -> ${d.new}: ${summary(d)}`, ...editionNotes(d)];
  for (const [title, k] of SECTIONS) {
    if (!d[k].length) continue;
    out.push('', `${title}:`);
    for (const c of d[k]) out.push(`  ${c.backend} ${c.id}: ${c.after} (${was(c)})${c.why ? `: ${c.why}` : ''}`);
  }
  if (d.gone.length) {
    out.push('', 'not in the new report:');
    for (const g of d.gone) out.push(`  ${g.backend} ${g.id} (was ${g.before})`);
  }
  return out.join('\n') + '\n';
}

export function diffMarkdown(d: ReportDiff): string {
  const out = ['# prose-state report diff', '', `\`${d.old}\` → \`${d.new}\`: ${summary(d)}`];
  const notes = editionNotes(d);
  if (notes.length) out.push('', ...notes.map((n) => `- ${n}`));
  for (const [title, k] of SECTIONS) {
    if (!d[k].length) continue;
    out.push('', `## ${title}`, '', '| backend | case | now | before | why |', '|---|---|---|---|---|');
    for (const c of d[k])
      out.push(
        `| ${c.backend} | ${c.id} | ${c.after} | ${was(c)} | ${c.why.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`,
      );
  }
  if (d.gone.length)
    out.push('', '## not in the new report', '', ...d.gone.map((g) => `- ${g.backend} ${g.id} (was ${g.before})`));
  return out.join('\n') + '\n';
}

export function diffHtml(d: ReportDiff): string {
  const table = (cs: readonly Change[]) =>
    `<table><tr><th>backend</th><th>case</th><th>now</th><th>before</th><th>why</th></tr>${cs
      .map(
        (c) =>
          `<tr><td>${esc(c.backend)}</td><td>${esc(c.id)}</td><td>${c.after}</td><td>${esc(was(c))}</td><td>${esc(c.why)}</td></tr>`,
      )
      .join('\n')}</table>`;
  const sections = SECTIONS.filter(([, k]) => d[k].length).map(
    ([title, k]) => `<h2 id="${k}">${title} (${d[k].length})</h2>\n${table(d[k])}`,
  );
  const gone = d.gone.length
    ? `<h2 id="gone">not in the new report (${d.gone.length})</h2>` +
      `<ul>${d.gone.map((g) => `<li>${esc(`${g.backend} ${g.id} (was ${g.before})`)}</li>`).join('')}</ul>`
    : '';
  const style =
    'body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}' +
    'td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>prose-state report diff</title>
<style>${style}</style></head>
<body><h1>prose-state report diff</h1><p><code>${esc(d.old)}</code> → <code>${esc(d.new)}</code>: ${esc(summary(d))}</p>
${editionNotes(d)
  .map((n) => `<p class="edition">${esc(n)}</p>\n`)
  .join('')}${sections.join('\n')}${gone}
</body></html>
`;
}

/** A line per backend the two sides judged in different editions: its cases are other runs, not changes. */
function editionNotes(d: ReportDiff): string[] {
  return d.editions.map(
    (e) =>
      `${e.backend}: judged in edition ${e.old} in the old report and ${e.new} in the new one; ` +
      'each edition is its own run (NAME, NAME@EDITION), so its cases show as gone or new, not as changes',
  );
}

function summary(d: ReportDiff): string {
  const gone = d.gone.length ? `, ${d.gone.length} gone` : '';
  return `${d.newlyFailing.length} newly failing, ${d.newlyPassing.length} newly passing, ${d.newlySkipped.length} newly skipped${gone}`;
}
