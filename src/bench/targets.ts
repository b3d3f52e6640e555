import { isSkipped, type BenchReport, type TargetResult } from './bench-report.ts';

/** Issue 8's targets, each judged on this run's ratios; `met: null` when the input was skipped. */
export function evaluateTargets(r: BenchReport): TargetResult[] {
  const out: TargetResult[] = [];
  const limits: Record<string, number> = { small: 1.3, medium: 1.1, large: 1.1 };
  for (const w of r.workloads) {
    const max = limits[w.name];
    if (max === undefined) continue;
    out.push({
      id: `fingerprint-${w.name}-limit`,
      description: `fingerprint ${w.description} within ${max}x of (read-only walk + raw hash)`,
      met: w.ratios.limit! <= max,
      actual: `${w.ratios.limit!.toFixed(2)}x`,
    });
  }
  // Issue 20: all cores against today's single-thread limit; judged on ours (what `fingerprint` runs).
  const allCores: Record<string, number> = { small: 0.7, medium: 1.0, large: 1.0 };
  for (const w of r.workloads) {
    const max = allCores[w.name];
    if (max === undefined || !w.parallel) continue;
    out.push({
      id: `fingerprint-${w.name}-all-cores`,
      description: `fingerprint ${w.description} at most ${max.toFixed(1)}x of the single-thread limit (all cores)`,
      met: w.ratios.limit! <= max,
      actual: `ours ${w.ratios.limit!.toFixed(2)}x, forced parallel ${w.parallel.ratios['allCores.limit'].toFixed(2)}x; vs the parallel limit ${w.parallel.ratios['ours.parallelLimit'].toFixed(2)}x`,
    });
  }
  const peerRatios = r.workloads.flatMap((w) =>
    Object.entries(w.ratios)
      .filter(([k]) => k !== 'limit')
      .map(([k, v]) => ({ w: w.name, k, v })),
  );
  const slowest = peerRatios.reduce<{ w: string; k: string; v: number } | undefined>(
    (a, b) => (!a || b.v > a.v ? b : a),
    undefined,
  );
  out.push({
    id: 'fingerprint-beats-peers',
    description: 'fingerprint faster than every peer on every workload',
    met: slowest ? slowest.v < 1 : null,
    actual: slowest ? `worst ${slowest.v.toFixed(2)}x of ${slowest.k} on ${slowest.w}` : 'no peer available',
  });
  out.push(
    isSkipped(r.memory)
      ? { id: 'memory-bounded', description: 'peak RSS bounded as the tree grows', met: null, actual: r.memory.skipped }
      : {
          id: 'memory-bounded',
          description: `peak RSS grows at most ${r.memory.boundMiB} MiB over an empty tree`,
          met: r.memory.bounded,
          actual: `max growth ${Math.max(...r.memory.trees.map((t) => t.growthMiB)).toFixed(1)} MiB`,
        },
  );
  out.push(startupTarget(r.startup));
  const sp = r.sqlitePeers;
  if (sp !== undefined) {
    const spawn = isSkipped(sp) ? sp : sp.peers['cli-per-statement'];
    const batch = isSkipped(sp) ? sp : sp.peers['cli-batched'];
    const d1 = 'sqlite backend binding writes at least 50x faster than one sqlite3 process per INSERT';
    const d2 = 'sqlite backend binding writes within 3x of one sqlite3 process running them batched';
    out.push(
      isSkipped(spawn) || isSkipped(sp)
        ? {
            id: 'sqlite-vs-cli-spawn',
            description: d1,
            met: null,
            actual: isSkipped(spawn) ? spawn.skipped : 'skipped',
          }
        : {
            id: 'sqlite-vs-cli-spawn',
            description: d1,
            met: spawn.ms / sp.ours.write.ms >= 50,
            actual: `${(spawn.ms / sp.ours.write.ms).toFixed(2)}x faster (${sp.ours.write.opsPerSec.toFixed(1)} vs ${spawn.opsPerSec.toFixed(1)} writes/s)`,
          },
    );
    out.push(
      isSkipped(batch) || isSkipped(sp)
        ? {
            id: 'sqlite-vs-cli-batch',
            description: d2,
            met: null,
            actual: isSkipped(batch) ? batch.skipped : 'skipped',
          }
        : {
            id: 'sqlite-vs-cli-batch',
            description: d2,
            met: sp.ours.write.ms / batch.ms <= 3,
            actual: `${(sp.ours.write.ms / batch.ms).toFixed(2)}x its time (${sp.ours.write.opsPerSec.toFixed(1)} vs ${batch.opsPerSec.toFixed(1)} writes/s)`,
          },
    );
  }
  return out;
}

function startupTarget(s: BenchReport['startup']): TargetResult {
  const description = 'binary --version within 1.5x of node -e 0 (the same Node)';
  if (isSkipped(s)) return { id: 'startup', description, met: null, actual: s.skipped };
  const actual = `${s.ratio.toFixed(2)}x (${s.binaryMs.toFixed(1)} vs ${s.nodeMs.toFixed(1)} ms)`;
  if (!s.comparable)
    return {
      id: 'startup',
      description,
      met: null,
      actual: `not judged: the binary runs Node ${s.binaryNodeVersion}, the node timed is ${s.nodeVersion} (give --node); ${actual}`,
    };
  return { id: 'startup', description, met: s.ratio <= 1.5, actual };
}
