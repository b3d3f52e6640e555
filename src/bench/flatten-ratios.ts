import { isSkipped, type BenchReport } from './bench-report.ts';

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
  // A ratio to another Node's start is not this binary's figure, so it is not gated.
  if (!isSkipped(r.startup) && r.startup.comparable) out['startup.node'] = r.startup.ratio;
  return out;
}
