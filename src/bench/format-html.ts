import { isSkipped, type BenchReport, type WorkloadResult } from './bench-report.ts';

/**
 * `bench --format html`: one self-contained page (no script, no external file) with an inline SVG bar chart per
 * fingerprint workload and one for the backends, then every ratio of the flat map in a table. The markup is
 * well-formed XML as well as HTML, so a plain XML parser reads it. Bars on one scale per chart: a workload's
 * times over its single-thread limit (1.00x), so ours, the parallel limit, our fingerprint on all cores, the
 * peers and the candidates sit side by side; the backends' times over the floor.
 */
export function formatHtml(r: BenchReport): string {
  const parts: string[] = [];
  for (const w of r.workloads) parts.push(workloadChart(w));
  const backendBars: Bar[] = [];
  for (const b of r.backends) {
    if (isSkipped(b)) continue;
    const kind = b.name === 'filesystem' ? 'ours' : 'peer';
    backendBars.push({ label: `${b.name} write`, value: b.ratios.write, kind });
    backendBars.push({ label: `${b.name} read`, value: b.ratios.read, kind });
    if (b.ratios.commit !== undefined) backendBars.push({ label: `${b.name} commit`, value: b.ratios.commit, kind });
  }
  if (backendBars.length > 0)
    parts.push(
      chart('Backends: time per operation over the file-system floor (atomic write / readFileSync)', backendBars),
    );
  const rows = Object.entries(r.ratios)
    .map(([k, v]) => `<tr><td>${esc(k)}</td><td class="n">${v.toFixed(2)}x</td></tr>`)
    .join('\n');
  const targets = r.targets
    .map(
      (t) =>
        `<tr><td>${esc(t.description)}</td><td>${t.met === null ? 'n/a' : t.met ? 'yes' : 'NO'}</td><td>${esc(t.actual)}</td></tr>`,
    )
    .join('\n');
  return `<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="en">
<head>
<meta charset="utf-8" />
<title>prose-state bench (${esc(r.profile)}), ${esc(r.startedAt)}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
td, th { padding: 2px 10px; text-align: left; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
svg text { font: 12px system-ui, sans-serif; }
</style>
</head>
<body>
<h1>prose-state bench (${esc(r.profile)})</h1>
<p>${esc(r.startedAt)}, ${(r.durationMs / 1000).toFixed(1)} s. ${esc(
    Object.entries(r.environment)
      .map(([k, v]) => `${k}: ${v}`)
      .join('; '),
  )}</p>
<p>Every bar is a time divided by a reference time measured in the same run; lower is better.</p>
${parts.join('\n')}
<h2>Every ratio (what --compare gates)</h2>
<table>
<tr><th>ratio</th><th>value</th></tr>
${rows}
</table>
<h2>Targets</h2>
<table>
<tr><th>target</th><th>met</th><th>actual</th></tr>
${targets}
</table>
</body>
</html>
`;
}

interface Bar {
  label: string;
  value: number;
  kind: 'ours' | 'limit' | 'peer' | 'candidate';
}

const COLORS: Record<Bar['kind'], string> = {
  ours: '#1f6feb',
  limit: '#8b949e',
  peer: '#d29922',
  candidate: '#8250df',
};

/** A workload's bars: each time over the single-thread limit (walk + raw hash), the limit itself being 1.00x. */
function workloadChart(w: WorkloadResult): string {
  const limit = w.limitMs;
  const bars: Bar[] = [
    { label: 'ours', value: w.fingerprint.ms / limit, kind: 'ours' },
    { label: 'limit (read, then hash)', value: 1, kind: 'limit' },
  ];
  if (w.parallel) {
    bars.push({ label: 'parallel limit (all cores read)', value: w.parallel.limit.ms / limit, kind: 'limit' });
    bars.push({ label: 'ours, all cores forced', value: w.parallel.allCores.ms / limit, kind: 'ours' });
  }
  for (const [name, p] of Object.entries(w.peers))
    if (!isSkipped(p)) bars.push({ label: `peer ${name}`, value: p.ms / limit, kind: 'peer' });
  for (const [name, c] of Object.entries(w.candidates ?? {}))
    bars.push(
      c.verdict === 'ok'
        ? { label: `candidate ${name}`, value: c.ratios.limit, kind: 'candidate' }
        : { label: `candidate ${name}: ${c.verdict.toUpperCase()}`, value: 0, kind: 'candidate' },
    );
  return chart(`${w.description} (${w.name}): time over the single-thread limit (${limit.toFixed(1)} ms)`, bars);
}

function chart(title: string, bars: readonly Bar[]): string {
  const labelW = 300;
  const barW = 420;
  const rowH = 22;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const height = bars.length * rowH + 30;
  const one = labelW + (barW * 1) / max;
  const rows = bars.map((b, i) => {
    const y = 20 + i * rowH;
    const w = (barW * b.value) / max;
    const text = b.value === 0 ? 'not timed' : `${b.value.toFixed(2)}x`;
    return [
      `<g><title>${esc(b.label)}: ${text}</title>`,
      `<text x="${labelW - 8}" y="${y + 14}" text-anchor="end">${esc(b.label)}</text>`,
      `<rect x="${labelW}" y="${y + 2}" width="${w.toFixed(1)}" height="${rowH - 6}" fill="${COLORS[b.kind]}" />`,
      `<text x="${(labelW + w + 6).toFixed(1)}" y="${y + 14}">${text}</text></g>`,
    ].join('');
  });
  return `<h2>${esc(title)}</h2>
<svg xmlns="http://www.w3.org/2000/svg" width="${labelW + barW + 80}" height="${height}" role="img">
<line x1="${one.toFixed(1)}" y1="12" x2="${one.toFixed(1)}" y2="${height - 4}" stroke="#444" stroke-dasharray="3 3" />
<text x="${one.toFixed(1)}" y="10" text-anchor="middle">1.00x</text>
${rows.join('\n')}
</svg>`;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
