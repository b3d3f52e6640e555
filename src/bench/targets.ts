import { isSkipped, type BenchReport, type TargetResult, type WorkloadResult } from './bench-report.ts';

/** Issue 8's targets, each judged on this run's ratios; `met: null` when the input was skipped. */
export function evaluateTargets(r: BenchReport): TargetResult[] {
  return [
    ...limitTargets(r.workloads),
    ...allCoresTargets(r.workloads),
    peersTarget(r.workloads),
    memoryTarget(r.memory),
    startupTarget(r.startup),
    ...(r.sqlitePeers === undefined ? [] : sqliteTargets(r.sqlitePeers)),
  ];
}

function limitTargets(workloads: WorkloadResult[]): TargetResult[] {
  const limits: Record<string, number> = { small: 1.3, medium: 1.1, large: 1.1 };
  return workloads.flatMap((w) => {
    const max = limits[w.name];
    if (max === undefined) return [];
    return [
      {
        id: `fingerprint-${w.name}-limit`,
        description: `fingerprint ${w.description} within ${max}x of (read-only walk + raw hash)`,
        met: w.ratios.limit! <= max,
        actual: `${w.ratios.limit!.toFixed(2)}x`,
      },
    ];
  });
}

/** Issue 20: all cores against today's single-thread limit; judged on ours (what `fingerprint` runs). */
function allCoresTargets(workloads: WorkloadResult[]): TargetResult[] {
  const allCores: Record<string, number> = { small: 0.7, medium: 1.0, large: 1.0 };
  return workloads.flatMap((w) => {
    const max = allCores[w.name];
    if (max === undefined || !w.parallel) return [];
    const ratios = w.parallel.ratios;
    const forced = `forced parallel ${ratios['allCores.limit'].toFixed(2)}x`;
    const vsParallel = `vs the parallel limit ${ratios['ours.parallelLimit'].toFixed(2)}x`;
    return [
      {
        id: `fingerprint-${w.name}-all-cores`,
        description: `fingerprint ${w.description} at most ${max.toFixed(1)}x of the single-thread limit (all cores)`,
        met: w.ratios.limit! <= max,
        actual: `ours ${w.ratios.limit!.toFixed(2)}x, ${forced}; ${vsParallel}`,
      },
    ];
  });
}

function peersTarget(workloads: WorkloadResult[]): TargetResult {
  const peerRatios = workloads.flatMap((w) =>
    Object.entries(w.ratios)
      .filter(([k]) => k !== 'limit')
      .map(([k, v]) => ({ w: w.name, k, v })),
  );
  const slowest = peerRatios.reduce<{ w: string; k: string; v: number } | undefined>(
    (a, b) => (!a || b.v > a.v ? b : a),
    undefined,
  );
  return {
    id: 'fingerprint-beats-peers',
    description: 'fingerprint faster than every peer on every workload',
    met: slowest ? slowest.v < 1 : null,
    actual: slowest ? `worst ${slowest.v.toFixed(2)}x of ${slowest.k} on ${slowest.w}` : 'no peer available',
  };
}

function memoryTarget(m: BenchReport['memory']): TargetResult {
  if (isSkipped(m))
    return { id: 'memory-bounded', description: 'peak RSS bounded as the tree grows', met: null, actual: m.skipped };
  return {
    id: 'memory-bounded',
    description: `peak RSS grows at most ${m.boundMiB} MiB over an empty tree`,
    met: m.bounded,
    actual: `max growth ${Math.max(...m.trees.map((t) => t.growthMiB)).toFixed(1)} MiB`,
  };
}

/** Our sqlite backend's writes against one sqlite3 process per INSERT, and against one running them batched. */
function sqliteTargets(sp: NonNullable<BenchReport['sqlitePeers']>): TargetResult[] {
  const spawn = isSkipped(sp) ? sp : sp.peers['cli-per-statement'];
  const batch = isSkipped(sp) ? sp : sp.peers['cli-batched'];
  const d1 = 'sqlite backend binding writes at least 50x faster than one sqlite3 process per INSERT';
  const d2 = 'sqlite backend binding writes within 3x of one sqlite3 process running them batched';
  const skipped = (id: string, description: string, p: unknown): TargetResult => ({
    id,
    description,
    met: null,
    actual: isSkipped(p) ? p.skipped : 'skipped',
  });
  if (isSkipped(sp)) return [skipped('sqlite-vs-cli-spawn', d1, spawn), skipped('sqlite-vs-cli-batch', d2, batch)];
  const ours = sp.ours.write;
  const rates = (peer: { opsPerSec: number }) =>
    `(${ours.opsPerSec.toFixed(1)} vs ${peer.opsPerSec.toFixed(1)} writes/s)`;
  return [
    isSkipped(spawn)
      ? skipped('sqlite-vs-cli-spawn', d1, spawn)
      : {
          id: 'sqlite-vs-cli-spawn',
          description: d1,
          met: spawn.ms / ours.ms >= 50,
          actual: `${(spawn.ms / ours.ms).toFixed(2)}x faster ${rates(spawn)}`,
        },
    isSkipped(batch)
      ? skipped('sqlite-vs-cli-batch', d2, batch)
      : {
          id: 'sqlite-vs-cli-batch',
          description: d2,
          met: ours.ms / batch.ms <= 3,
          actual: `${(ours.ms / batch.ms).toFixed(2)}x its time ${rates(batch)}`,
        },
  ];
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
