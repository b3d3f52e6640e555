import { availableParallelism } from 'node:os';
import { fingerprintDirectoryAsync, framesJobsStarted, type ParallelStats } from '../fingerprint/index.ts';
import { checkCandidate, candidateSource, failedResult, timedRun, type Candidate, type Outcome } from './candidates.ts';
import type { CandidateResult, ThroughputTiming, Timing, WorkloadResult } from './bench-report.ts';
import { loadTree, rawHash, readOnlyWalk, startParallelLimit, type ParallelLimit } from './limit-tasks.ts';
import { measureInterleavedAsync, type MeasureTask } from './measure.ts';
import { PEERS, preparePeer, type PeerRunner } from './peers.ts';
import { fileCount, type WorkloadSpec } from './workloads.ts';

export interface Effort {
  rounds: number;
  /** Samples per round of in-process tasks (the fingerprint workloads take them one at a time, alternating). */
  inProcess: number;
  /** Samples per round of whole-process peers. */
  peer: number;
}

/**
 * Our fingerprint, the two halves of the limit, the parallel limit, our fingerprint forced onto all cores and every
 * available peer, on the same bytes in the same run.
 * The raw-hash data is loaded only for the duration of this workload. "Ours" is `fingerprintDirectoryAsync`
 * (reads overlap hashing, so it can beat the limit, a sum); every task runs through the same async harness.
 */
export async function benchWorkload(
  dir: string,
  spec: WorkloadSpec,
  effort: Effort,
  env: Record<string, string | undefined>,
  candidates: { list: readonly Candidate[]; timeoutMs: number } = { list: [], timeoutMs: 0 },
): Promise<WorkloadResult> {
  const buffers = loadTree(dir);
  const address = (await fingerprintDirectoryAsync(dir)).address;
  const peers = PEERS.map((p) => preparePeer(p, dir, env));
  const parallelLimit = await startParallelLimit(dir, availableParallelism());
  const own = ownTasks(dir, buffers, parallelLimit, address);
  const tasks = [...own.tasks, ...peerTasks(peers, effort)];
  // Each candidate is checked once before any timing; only one that printed our address is timed, as a peer is.
  const checked: CheckedCandidate[] = [];
  for (const c of candidates.list) {
    const outcome = await checkCandidate(c, dir, address, candidates.timeoutMs, env);
    const failures: string[] = [];
    checked.push({ c, outcome, failures });
    if (outcome.ok)
      tasks.push({
        name: `candidate:${c.name}`,
        fn: timedRun(c, dir, candidates.timeoutMs, env, failures),
        iterations: c.kind === 'command' ? effort.peer : 1,
        every: c.kind === 'command' ? effort.inProcess : 1,
      });
  }
  let t;
  try {
    t = await measureInterleavedAsync(tasks, effort.rounds * effort.inProcess);
  } finally {
    await parallelLimit.close();
  }
  const size = { files: fileCount(spec), bytes: buffers.reduce((a, b) => a + b.length, 0) };
  const result = ownResult(spec, size, t, { address, auto: own.auto, allCores: own.allCoresStats(), parallelLimit });
  addPeers(result, peers, t);
  if (checked.length > 0) result.candidates = candidateResults(checked, t, address, result);
  return result;
}

type Timings = Map<string, Timing>;
type CheckedCandidate = { c: Candidate; outcome: Outcome; failures: string[] };
type FingerprintAuto = WorkloadResult['fingerprint']['auto'];

/**
 * Ours, the two halves of the limit, the parallel limit and ours on all cores. They alternate sample by sample (one
 * per round), so a neighbour's burst of load falls on ours and on the limit alike instead of on one batch.
 */
function ownTasks(dir: string, buffers: Buffer[], parallelLimit: ParallelLimit, address: string) {
  const walkBuffer = new Uint8Array(1 << 20);
  let allCoresStats: ParallelStats | undefined;
  // How often `auto` (ours) took a reader thread (the parallel reader, or one reading ahead from the first large
  // file): it asks for a free core on every call, so a neighbour's burst can put some samples on one thread; the
  // report says how many.
  const auto = { calls: 0, parallel: 0, readAhead: 0 };
  const tasks: MeasureTask<Promise<unknown>>[] = [
    {
      name: 'fingerprint',
      fn: async () => {
        const jobs = framesJobsStarted();
        const fp = await fingerprintDirectoryAsync(dir);
        auto.calls++;
        if (fp.parallel) auto.parallel++;
        if (framesJobsStarted() > jobs) auto.readAhead++;
      },
      iterations: 1,
    },
    { name: 'walk', fn: async () => readOnlyWalk(dir, walkBuffer), iterations: 1 },
    { name: 'rawHash', fn: async () => rawHash(buffers), iterations: 1 },
    { name: 'parallelLimit', fn: () => parallelLimit.run(buffers), iterations: 1 },
    {
      name: 'allCores',
      fn: async () => {
        const fp = await fingerprintDirectoryAsync(dir, { parallel: true });
        if (fp.address !== address) throw new Error(`the parallel reader gave ${fp.address}, not ${address}`);
        allCoresStats = fp.parallel;
      },
      iterations: 1,
    },
  ];
  return { tasks, auto, allCoresStats: () => allCoresStats! };
}

/** Whole-process peers keep their samples per (rounds / inProcess). */
function peerTasks(peers: PeerRunner[], effort: Effort): MeasureTask<Promise<unknown>>[] {
  return peers.flatMap((p) =>
    'run' in p
      ? [{ name: `peer:${p.peer.name}`, fn: async () => p.run(), iterations: effort.peer, every: effort.inProcess }]
      : [],
  );
}

/** The workload's own figures: ours, the limit and the parallel limit, with their ratios. */
function ownResult(
  spec: WorkloadSpec,
  size: { files: number; bytes: number },
  t: Timings,
  own: { address: string; auto: FingerprintAuto; allCores: ParallelStats; parallelLimit: ParallelLimit },
): WorkloadResult {
  const through = (timing: Timing): ThroughputTiming => ({
    ...timing,
    filesPerSec: size.files / (timing.ms / 1000),
    mbPerSec: size.bytes / 1e6 / (timing.ms / 1000),
  });
  const fingerprint = t.get('fingerprint')!;
  const limitMs = t.get('walk')!.ms + t.get('rawHash')!.ms;
  const pl = t.get('parallelLimit')!;
  const all = t.get('allCores')!;
  return {
    name: spec.name,
    description: spec.description,
    ...size,
    fingerprint: { ...through(fingerprint), address: own.address, auto: own.auto },
    walk: through(t.get('walk')!),
    rawHash: through(t.get('rawHash')!),
    limitMs,
    peers: {},
    ratios: { limit: fingerprint.ms / limitMs },
    parallel: {
      limit: { ...pl, threads: own.parallelLimit.threads },
      allCores: { ...through(all), ...own.allCores },
      ratios: {
        'ours.parallelLimit': fingerprint.ms / pl.ms,
        'allCores.limit': all.ms / limitMs,
        'allCores.parallelLimit': all.ms / pl.ms,
      },
    },
  };
}

/** Each peer's timing (or why it was skipped) and our ratio to it. */
function addPeers(result: WorkloadResult, peers: PeerRunner[], t: Timings): void {
  for (const p of peers) {
    if ('skipped' in p) {
      result.peers[p.peer.name] = { skipped: p.skipped };
      continue;
    }
    const timing = t.get(`peer:${p.peer.name}`)!;
    result.peers[p.peer.name] = { ...timing, command: p.peer.script.replaceAll('"$1"', 'DIR') };
    result.ratios[p.peer.name] = result.fingerprint.ms / timing.ms;
  }
}

/** Each candidate's verdict: failed its check, failed while timed, or ok with its timing and ratios. */
function candidateResults(
  checked: CheckedCandidate[],
  t: Timings,
  address: string,
  own: WorkloadResult,
): Record<string, CandidateResult> {
  const out: Record<string, CandidateResult> = {};
  for (const { c, outcome, failures } of checked) {
    if (!outcome.ok) out[c.name] = failedResult(c, outcome);
    else if (failures.length > 0) out[c.name] = failedResult(c, { ok: false, verdict: 'failed', detail: failures[0]! });
    else {
      const timing = t.get(`candidate:${c.name}`)!;
      out[c.name] = {
        kind: c.kind,
        source: candidateSource(c),
        verdict: 'ok',
        address,
        timing,
        ratios: { limit: timing.ms / own.limitMs, ours: timing.ms / own.fingerprint.ms },
      };
    }
  }
  return out;
}
