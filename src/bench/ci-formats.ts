import { isSkipped, type BenchReport } from './bench-report.ts';

/**
 * A report in the shapes two CI trackers read: github-action-benchmark's `customSmallerIsBetter` (an array of
 * `{name, unit, value, extra?}`) and Bencher's Metric Format (`{benchmark: {measure: {value}}}`). Both carry every
 * gated ratio (unit "x", lower is better) and the medians in milliseconds behind them, and `--scale`'s growth
 * exponents (unit "exponent"; Bencher measure "growth-exponent"); a candidate that failed has no figure (the run
 * exits 1 for it instead).
 */
interface MsFigure {
  key: string;
  ms: number;
  samples?: number;
}

/** Every median time of a report under a dotted key in the style of the ratio keys. */
export function msFigures(r: BenchReport): MsFigure[] {
  const out: MsFigure[] = [];
  const add = (key: string, t: { ms: number; samples?: number }) => out.push({ key, ms: t.ms, samples: t.samples });
  for (const w of r.workloads) {
    const k = `fingerprint.${w.name}`;
    add(`${k}.ours`, w.fingerprint);
    add(`${k}.walk`, w.walk);
    add(`${k}.rawHash`, w.rawHash);
    add(`${k}.limit`, { ms: w.limitMs });
    if (w.parallel) {
      add(`${k}.parallelLimit`, w.parallel.limit);
      add(`${k}.allCores`, w.parallel.allCores);
    }
    for (const [p, t] of Object.entries(w.peers)) if (!isSkipped(t)) add(`${k}.peer.${p}`, t);
    for (const [c, t] of Object.entries(w.candidates ?? {}))
      if (t.verdict === 'ok') add(`${k}.candidate.${c}`, t.timing);
  }
  if (!isSkipped(r.receipts))
    for (const task of ['hash', 'chain', 'floor'] as const) add(`receipts.${task}`, r.receipts[task]);
  for (const b of r.backends)
    if (!isSkipped(b)) {
      add(`backend.${b.name}.write`, b.write);
      add(`backend.${b.name}.read`, b.read);
      if (b.commit) add(`backend.${b.name}.commit`, b.commit);
    }
  const sp = r.sqlitePeers;
  if (sp && !isSkipped(sp)) {
    add('sqlite.ours.write', sp.ours.write);
    add('sqlite.ours.read', sp.ours.read);
    for (const [p, t] of Object.entries(sp.peers)) if (!isSkipped(t)) add(`sqlite.peer.${p}`, t);
    for (const [e, t] of Object.entries(sp.engines ?? {})) {
      add(`sqlite.engine.${e}.write`, t.write);
      add(`sqlite.engine.${e}.read`, t.read);
    }
  }
  if (r.scale && !isSkipped(r.scale))
    for (const b of r.scale.backends)
      if (!isSkipped(b))
        for (const p of b.points)
          for (const [op, t] of Object.entries(p.ops)) add(`scale.${b.name}.${op}.at${p.size}`, t);
  if (!isSkipped(r.startup)) {
    add('startup.binary', { ms: r.startup.binaryMs, samples: r.startup.runs });
    add('startup.node', { ms: r.startup.nodeMs, samples: r.startup.runs });
  }
  return out;
}

/** Each operation's fitted growth exponent (`bench --scale`): a figure of its own unit, lower is better. */
export function scaleExponents(r: BenchReport): { key: string; value: number }[] {
  if (!r.scale || isSkipped(r.scale)) return [];
  return r.scale.backends.flatMap((b) =>
    isSkipped(b) ? [] : Object.entries(b.exponents).map(([op, value]) => ({ key: `scale.${b.name}.${op}`, value })),
  );
}

export interface GithubBenchmarkEntry {
  name: string;
  unit: string;
  value: number;
  extra?: string;
}

/** github-action-benchmark `tool: customSmallerIsBetter`: ratios as "x", times as "ms" (names end in " ms"). */
export function toGithubBenchmark(r: BenchReport): GithubBenchmarkEntry[] {
  return [
    ...Object.entries(r.ratios).map(([name, value]) => ({ name, unit: 'x', value })),
    ...msFigures(r).map((f) => ({
      name: `${f.key} ms`,
      unit: 'ms',
      value: f.ms,
      ...(f.samples ? { extra: `median of ${f.samples} samples (${r.profile} profile)` } : {}),
    })),
    ...scaleExponents(r).map((e) => ({
      name: `${e.key} exponent`,
      unit: 'exponent',
      value: e.value,
      extra: 'log-log slope of time on run size: 0 flat, 1 linear',
    })),
  ];
}

export type BencherMetricFormat = Record<string, Record<string, { value: number }>>;

/**
 * Bencher Metric Format: one benchmark per dotted key; a ratio under the measure "ratio" (created on first
 * upload), a time under Bencher's built-in "latency", whose unit is nanoseconds.
 */
export function toBencher(r: BenchReport): BencherMetricFormat {
  const out: BencherMetricFormat = {};
  const put = (bench: string, measure: string, value: number) => ((out[bench] ??= {})[measure] = { value });
  for (const [key, value] of Object.entries(r.ratios)) put(key, 'ratio', value);
  for (const f of msFigures(r)) put(f.key, 'latency', f.ms * 1e6);
  for (const e of scaleExponents(r)) put(e.key, 'growth-exponent', e.value);
  return out;
}
