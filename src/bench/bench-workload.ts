import { fingerprintDirectory } from '../canon/index.ts';
import type { ThroughputTiming, Timing, WorkloadResult } from './bench-report.ts';
import { loadTree, rawHash, readOnlyWalk } from './limit-tasks.ts';
import { measureInterleaved, type MeasureTask } from './measure.ts';
import { PEERS, preparePeer } from './peers.ts';
import { fileCount, type WorkloadSpec } from './workloads.ts';

export interface Effort {
  rounds: number;
  /** Samples per round of in-process tasks and of whole-process peers. */
  inProcess: number;
  peer: number;
}

/**
 * Our fingerprint, the two halves of the limit and every available peer, on the same bytes in the same run.
 * The raw-hash data is loaded only for the duration of this workload.
 */
export function benchWorkload(dir: string, spec: WorkloadSpec, effort: Effort, env: Record<string, string | undefined>): WorkloadResult {
  const buffers = loadTree(dir);
  const bytes = buffers.reduce((a, b) => a + b.length, 0);
  const files = fileCount(spec);
  const walkBuffer = new Uint8Array(1 << 20);
  const address = fingerprintDirectory(dir).address;
  const peers = PEERS.map((p) => preparePeer(p, dir, env));
  const tasks: MeasureTask[] = [
    { name: 'fingerprint', fn: () => fingerprintDirectory(dir), iterations: effort.inProcess },
    { name: 'walk', fn: () => readOnlyWalk(dir, walkBuffer), iterations: effort.inProcess },
    { name: 'rawHash', fn: () => rawHash(buffers), iterations: effort.inProcess },
  ];
  for (const p of peers) if ('run' in p) tasks.push({ name: `peer:${p.peer.name}`, fn: p.run, iterations: effort.peer });
  const t = measureInterleaved(tasks, effort.rounds);
  const through = (timing: Timing): ThroughputTiming => ({ ...timing, filesPerSec: files / (timing.ms / 1000), mbPerSec: bytes / 1e6 / (timing.ms / 1000) });
  const fingerprint = t.get('fingerprint')!;
  const limitMs = t.get('walk')!.ms + t.get('rawHash')!.ms;
  const result: WorkloadResult = {
    name: spec.name, description: spec.description, files, bytes,
    fingerprint: { ...through(fingerprint), address },
    walk: through(t.get('walk')!),
    rawHash: through(t.get('rawHash')!),
    limitMs,
    peers: {},
    ratios: { limit: fingerprint.ms / limitMs },
  };
  for (const p of peers) {
    if ('skipped' in p) {
      result.peers[p.peer.name] = { skipped: p.skipped };
      continue;
    }
    const timing = t.get(`peer:${p.peer.name}`)!;
    result.peers[p.peer.name] = { ...timing, command: p.peer.script.replaceAll('"$1"', 'DIR') };
    result.ratios[p.peer.name] = fingerprint.ms / timing.ms;
  }
  return result;
}
