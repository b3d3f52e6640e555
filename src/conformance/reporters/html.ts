import type { CaseSource } from '../case-source.ts';
import type { CapabilityReport } from '../probes/capability-report.ts';
import { STATUSES, type CaseResult } from '../outcome.ts';
import type { RunHeader } from '../run-suite.ts';
import { htmlClaims } from './html-claims.ts';
import { esc, slug } from './html-escape.ts';
import { HTML_SCRIPT, HTML_STYLE } from './html-page.ts';
import { notJudgedLine, type NotJudged } from '../edition-runs.ts';
import { buildMatrix, cellText, editionRow } from './matrix.ts';
import type { Reporter, ReporterOptions, Write } from './reporter.ts';
import { quickNote } from './run-notes.ts';

/**
 * One self-contained HTML page (inline style and script, nothing fetched): the runs' headers, the matrix and every
 * case, both filterable by area, backend and outcome; then each failure with where it is, expected vs seen, the spec
 * sentence it checks and the case's YAML. A matrix cell with failures links to its first one; each failure links
 * back to its cell.
 */
export function htmlReporter(write: Write, opts: ReporterOptions = {}): Reporter {
  const headers: RunHeader[] = [];
  const claims: CapabilityReport[] = [];
  const notJudged: NotJudged[] = [];
  return {
    header: (h) => headers.push(h),
    capabilities: (r) => claims.push(r),
    result: () => undefined,
    footer: () => undefined,
    notJudged: (n) => notJudged.push(n),
    finish: (all) => write(htmlReport(all, { headers, claims, sources: opts.sources, notJudged })),
  };
}

const NEEDS_ATTENTION = ['failed', 'errored', 'xpassed'];
const cellId = (backend: string, area: string) => `m-${slug(backend)}-${slug(area)}`;
const caseId = (r: CaseResult) => `case-${slug(r.backend)}-${slug(r.id)}`;
const rowId = (r: CaseResult) => `row-${slug(r.backend)}-${slug(r.id)}`;

export function htmlReport(
  all: readonly CaseResult[],
  ctx: {
    headers?: readonly RunHeader[];
    claims?: readonly CapabilityReport[];
    sources?: ReadonlyMap<string, CaseSource>;
    notJudged?: readonly NotJudged[];
  },
): string {
  const headers = ctx.headers ?? [];
  const m = buildMatrix(all);
  const bad = all.filter((r) => NEEDS_ATTENTION.includes(r.outcome.status));
  const select = (name: string, values: readonly string[]) =>
    `<label>${name} <select id="filter-${name}"><option value="">all</option>${values
      .map((v) => `<option value="${esc(v)}">${esc(v)}</option>`)
      .join('')}</select></label>`;
  const matrix = m.areas.map(
    (a) =>
      `<tr data-filter data-area="${esc(a)}"><th>${esc(a)}</th>${m.backends
        .map((b) => {
          const c = m.cell(a, b);
          const failing = c.failed + c.errored + c.xpassed > 0;
          const cls = c.total === 0 ? 'none' : failing ? 'bad' : c.passed === 0 ? 'skip' : 'ok';
          const text = esc(cellText(c));
          const first = failing && bad.find((r) => r.backend === b && r.area === a);
          const link = first ? `<a href="#${caseId(first)}">${text}</a>` : text;
          return `<td id="${cellId(b, a)}" class="${cls}" data-filter data-backend="${esc(b)}">${link}</td>`;
        })
        .join('')}</tr>`,
  );
  const rows = all.map((r) => {
    const o = r.outcome;
    const note = o.status === 'skipped' || o.status === 'xfailed' || o.status === 'xpassed' ? o.reason : '';
    const id = NEEDS_ATTENTION.includes(o.status) ? `<a href="#${caseId(r)}">${esc(r.id)}</a>` : esc(r.id);
    const attrs = `data-filter data-area="${esc(r.area)}" data-backend="${esc(r.backend)}" data-status="${o.status}"`;
    const cells = [esc(r.backend), esc(r.area), id, o.status].map((c) => `<td>${c}</td>`).join('');
    return `<tr id="${rowId(r)}" class="case-row" ${attrs}>${cells}<td class="ms">${r.durationMs}</td><td>${esc(note)}</td></tr>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>prose-state compliance</title>
<style>${HTML_STYLE}</style></head>
<body><h1>prose-state compliance</h1>
${runsTable(headers)}${notJudgedNotes(ctx.notJudged ?? [])}<div class="filters">${select('area', m.areas)} ${select('backend', m.backends)} ${select(
    'outcome',
    STATUSES.filter((s) => all.some((r) => r.outcome.status === s)),
  )} <span><span id="shown">${all.length}</span> of ${all.length} cases shown</span></div>
<h2>Matrix</h2>
<table id="matrix"><tr><th>area</th>${m.backends.map((b) => `<th data-filter data-backend="${esc(b)}">${esc(b)}</th>`).join('')}</tr>
${editionCells(m.backends, headers)}${matrix.join('\n')}
</table>
<p>Cells: passed/run; F failed, E errored, X! unexpected pass, x expected failure, s skipped. A red cell links to its first failure.</p>
${htmlClaims(
  ctx.claims ?? [],
  headers.filter((h) => h.probes === 'skipped').map((h) => h.backend.name),
)}<h2>Failures</h2>
${bad.map((r) => failure(r, ctx.sources?.get(r.id))).join('\n') || '<p>none</p>'}
<h2>Cases</h2>
<table id="cases"><tr><th>backend</th><th>area</th><th>case</th><th>outcome</th><th>ms</th><th>reason</th></tr>
${rows.join('\n')}
</table>
<script>${HTML_SCRIPT}</script>
</body></html>
`;
}

/** The matrix's edition row (each backend column is one backend in one edition). */
function editionCells(backends: readonly string[], headers: readonly RunHeader[]): string {
  const row = editionRow(backends, headers);
  if (!row) return '';
  const cells = row.map((e, i) => `<td data-filter data-backend="${esc(backends[i]!)}">${esc(e)}</td>`).join('');
  return `<tr class="edition"><th>edition</th>${cells}</tr>\n`;
}

/** A line per backend left out of the run (the edition asked for is not one it declares), under the runs table. */
function notJudgedNotes(left: readonly NotJudged[]): string {
  return left.map((n) => `\n<p class="not-judged">${esc(notJudgedLine(n))}</p>`).join('');
}

function runsTable(headers: readonly RunHeader[]): string {
  if (!headers.length) return '';
  // A quick run is said above everything, as pretty and TAP say it first: it is no full run.
  const quick = [...new Set(headers.map(quickNote).filter((q) => q !== undefined))];
  const notes = (h: RunHeader) =>
    [quickNote(h) ? 'quick (--quick)' : '', h.probes === 'skipped' ? 'capability probes skipped (--no-probe)' : '']
      .filter(Boolean)
      .join('; ') || '-';
  const row = (h: RunHeader) => {
    const decisions = Object.entries(h.decisions)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ');
    const shard = h.shard ? `${h.shard.index}/${h.shard.count}` : '-';
    const cells = [
      esc(h.backend.name),
      esc(h.backend.kind),
      esc(h.edition),
      esc(`${h.suite.name} ${h.suite.version}`),
      h.cases,
      h.tz ? `${h.seed} (TZ ${esc(h.tz)})` : h.seed,
    ];
    return `<tr>${[...cells, shard, esc(notes(h)), esc(decisions)].map((c) => `<td>${c}</td>`).join('')}</tr>`;
  };
  const head = ['backend', 'kind', 'edition', 'suite', 'cases', 'seed', 'shard', 'run', 'decisions'].map(
    (t) => `<th>${t}</th>`,
  );
  return `${quick.map((q) => `<p class="quick"><strong>${esc(q)}</strong></p>\n`).join('')}<table id="runs"><tr>${head.join('')}</tr>
${headers.map(row).join('\n')}
</table>`;
}

/** One failure: where, what was expected and seen, the spec sentence it checks and the case as written. */
function failure(r: CaseResult, source: CaseSource | undefined): string {
  const o = r.outcome;
  const at = o.status === 'failed' || o.status === 'errored' ? o.at : undefined;
  const where = at ? `${at.file}:${at.line}` : source ? `${source.file}:${source.line}` : '';
  let body = '';
  if (o.status === 'failed') {
    body = `<p>step <code>${esc(o.step)}</code>: ${esc(o.message)}</p>`;
    if (o.expected !== undefined || o.seen !== undefined)
      body +=
        `<div class="pair"><div>expected<pre class="expected">${esc(full(o.expected))}</pre></div>` +
        `<div>seen<pre class="seen">${esc(full(o.seen))}</pre></div></div>`;
  } else if (o.status === 'errored') {
    const at = o.step ? ` at <code>${esc(o.step)}</code>` : '';
    const hint = o.error.hint ? ` (${esc(o.error.hint)})` : '';
    body = `<p>errored${at}: ${esc(o.error.code)}: ${esc(o.error.message)}${hint}</p>${o.evidence ? `<pre>${esc(o.evidence)}</pre>` : ''}`;
  } else if (o.status === 'xpassed') {
    body = `<p>passed although expected to fail: ${esc(o.reason)}</p>`;
  }
  const links = `<a href="#${cellId(r.backend, r.area)}">matrix cell</a> &middot; <a href="#${rowId(r)}">case row</a>`;
  return `<div class="detail" id="${caseId(r)}" data-filter data-area="${esc(r.area)}" data-backend="${esc(r.backend)}" data-status="${o.status}">
<h3>${esc(r.backend)} ${esc(r.id)} <small>${o.status}</small></h3>
<p>${esc(r.title)}${where ? ` &middot; <code>${esc(where)}</code>` : ''} &middot; ${links}</p>
${body}${r.spec ? `<p class="spec">spec: ${esc(r.spec)}</p>` : ''}
${source ? `<details open><summary>${esc(`${source.file}:${source.line}`)}</summary><pre class="yaml">${yaml(source, at?.line)}</pre></details>` : ''}
</div>`;
}

/** A value as indented JSON, cut at a size a page can hold. */
function full(v: unknown): string {
  const s = v === undefined ? 'nothing' : (JSON.stringify(v, null, 2) ?? String(v));
  return s.length > 20_000 ? `${s.slice(0, 20_000)}\n... (${s.length} chars)` : s;
}

/** The case's YAML, the failing step's line marked. */
function yaml(source: CaseSource, line: number | undefined): string {
  return source.yaml
    .split('\n')
    .map((l, i) => (line === source.line + i ? `<mark>${esc(l)}</mark>` : esc(l)))
    .join('\n');
}
