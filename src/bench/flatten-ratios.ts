import { isSkipped, type BenchReport, type ScaleResult } from './bench-report.ts';

/** Every gated ratio of a report under a stable dotted key, e.g. `fingerprint.small.limit`. */
export function flattenRatios(r: BenchReport): Record<string, number> {
  const out: Record<string, number> = {};
  for (const w of r.workloads) {
    for (const [k, v] of Object.entries(w.ratios))
      out[k === 'limit' ? `fingerprint.${w.name}.limit` : `fingerprint.${w.name}.peer.${k}`] = v;
    for (const [k, v] of Object.entries(w.parallel?.ratios ?? {})) out[`fingerprint.${w.name}.${k}`] = v;
    for (const [name, c] of Object.entries(w.candidates ?? {}))
      if (c.verdict === 'ok') {
        out[`fingerprint.${w.name}.candidate.${name}.limit`] = c.ratios.limit;
        out[`fingerprint.${w.name}.candidate.${name}.ours`] = c.ratios.ours;
      }
  }
  if (!isSkipped(r.receipts)) {
    out['receipts.hash'] = r.receipts.ratios.hash;
    out['receipts.chain'] = r.receipts.ratios.chain;
  }
  for (const b of r.backends) {
    if (isSkipped(b)) continue;
    out[`backend.${b.name}.write`] = b.ratios.write;
    out[`backend.${b.name}.read`] = b.ratios.read;
    if (b.ratios.commit !== undefined) out[`backend.${b.name}.commit`] = b.ratios.commit;
    for (const [k, v] of Object.entries(b.vsFilesystem ?? {})) out[`backend.${b.name}.vsFilesystem.${k}`] = v;
  }
  if (!isSkipped(r.memory)) {
    const base = r.memory.trees.find((t) => t.tree === 'empty')!.peakRssMiB;
    for (const t of r.memory.trees) if (t.tree !== 'empty') out[`memory.${t.tree}.rss`] = t.peakRssMiB / base;
  }
  if (r.scale && !isSkipped(r.scale)) Object.assign(out, scaleRatios(r.scale));
  // A ratio to another Node's start is not this binary's figure, so it is not gated.
  if (!isSkipped(r.startup) && r.startup.comparable) out['startup.node'] = r.startup.ratio;
  return out;
}

/**
 * Each operation's growth across the run sizes (time at the largest / time at the smallest, both from this run), so
 * `--compare` sees an operation that starts to grow with the run. The exponents are figures, not gated: near 0 a
 * relative change of one means nothing.
 */
export function scaleRatios(scale: ScaleResult): Record<string, number> {
  const out: Record<string, number> = {};
  for (const b of scale.backends)
    if (!isSkipped(b)) for (const [op, g] of Object.entries(b.growth)) out[`scale.${b.name}.${op}.growth`] = g;
  return out;
}
