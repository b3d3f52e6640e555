/**
 * The shape of `prose-state bench --format json` (a contract: spec/bench checks it). Every time is a median in
 * milliseconds; every ratio is a time divided by a reference time measured in the SAME run (lower is better), and
 * only ratios are gated by `--compare`, because absolute times on a shared machine swing by 20%.
 */
import type { ScaleOp } from './scale-ops.ts';

export const BENCH_SCHEMA = 'prose-state.bench';
export const BENCH_VERSION = 1;

export type Profile = 'full' | 'quick';

/** A measurement that could not be taken is a value with a reason, never a silent gap. */
export interface Skipped {
  skipped: string;
}

export interface Timing {
  /** Median of the per-round medians. */
  ms: number;
  /** Mean over every sample (tinybench `latency.mean`, ms). */
  meanMs: number;
  samples: number;
}

export interface ThroughputTiming extends Timing {
  filesPerSec: number;
  mbPerSec: number;
}

export interface WorkloadResult {
  name: string;
  description: string;
  files: number;
  /** Bytes of file content. */
  bytes: number;
  fingerprint: ThroughputTiming & {
    address: string;
    /** Calls of ours (warm-up included) and how many of them `auto` read on reader threads: as a parallel tree,
     * or read ahead from the first large file (`readAhead`; absent in older reports). */
    auto?: { calls: number; parallel: number; readAhead?: number };
  };
  walk: ThroughputTiming;
  rawHash: ThroughputTiming;
  /** walk + rawHash: what a single thread cannot beat (the "limit"). */
  limitMs: number;
  peers: Record<string, (Timing & { command: string }) | Skipped>;
  /** `limit` and one entry per measured peer: fingerprint time / reference time. */
  ratios: Record<string, number>;
  /**
   * Issue 20's all-cores figures (absent in reports from before them): the parallel limit (every core reading, one
   * hashing, threads started beforehand), our fingerprint forced onto the parallel reader (`allCores`), and ratios:
   * `ours.parallelLimit` (ours / parallel limit), `allCores.limit`, `allCores.parallelLimit`.
   */
  parallel?: ParallelFigures;
  /** `--candidate` implementations, by name (absent when none was given). */
  candidates?: Record<string, CandidateResult>;
}

export interface ParallelFigures {
  limit: Timing & { threads: number };
  allCores: ThroughputTiming & {
    /** Reader threads besides the hashing one, and the cap on bytes read ahead (`ParallelStats`, last sample). */
    workers: number;
    capBytes: number;
    batches: number;
    workerBatches: number;
    stolen: number;
  };
  ratios: { 'ours.parallelLimit': number; 'allCores.limit': number; 'allCores.parallelLimit': number };
}

/**
 * A candidate on one workload: timed only when it printed our address. Its ratios are ITS time over the limit
 * and over our fingerprint (lower is better for it).
 */
export type CandidateResult =
  | {
      kind: 'command' | 'module';
      /** The command (DIR for the workload directory) or `module:PATH`. */
      source: string;
      verdict: 'ok';
      address: string;
      timing: Timing;
      ratios: { limit: number; ours: number };
    }
  | {
      kind: 'command' | 'module';
      source: string;
      /** wrong: a well-formed address that is not ours; failed: crash, non-zero exit or no address; timeout. */
      verdict: 'wrong' | 'failed' | 'timeout';
      detail: string;
      /** The tail of its stderr (commands). */
      stderr?: string;
    };

export interface ReceiptsResult {
  source: string;
  receipts: number;
  chains: number;
  hash: Timing & { receiptsPerSec: number };
  chain: Timing & { receiptsPerSec: number };
  /** JSON.stringify + sha256 of each receipt, no key sorting: the floor of canonical hashing. */
  floor: Timing & { receiptsPerSec: number };
  ratios: { hash: number; chain: number };
}

export interface BackendResult {
  /** A built-in backend's name, or `exec:NAME` / `module:NAME` with the name a plugin gave itself. */
  name: string;
  /** A plugin's backend string, as given to --backend. */
  spec?: string;
  write: Timing & { opsPerSec: number };
  read: Timing & { opsPerSec: number };
  /** World-model commits (a new two-file version each), when the backend has the world-model capability. */
  commit?: Timing & { opsPerSec: number };
  /** writeFileAtomic (temp, fsync, rename, dir fsync) and readFileSync of the same value. */
  floor: { write: Timing; read: Timing };
  /** Over the floor (a commit over one atomic write of the floor's value). */
  ratios: { write: number; read: number; commit?: number };
  /** Over our filesystem backend's time in the same run (every backend but that one, when it was measured). */
  vsFilesystem?: { write: number; read: number; commit?: number };
}

/** A backend that could not be measured: a built-in one skipped (postgres unreachable), or a plugin that failed. */
export type BackendOutcome = BackendResult | ({ name: string; failed?: true } & Skipped);

export type OpsTiming = Timing & { opsPerSec: number };
export type PeerTiming = OpsTiming & { command: string };

/**
 * Issue 3's goal: binding writes and scope-resolved reads through our sqlite backend against the real `sqlite3` CLI
 * on the same schema (a state.db our backend created) and the same rows. Peers: one `sqlite3` process per INSERT
 * (what the seed spec does), one `sqlite3` process running every INSERT as its own autocommit transaction (the
 * same durability as our one commit per write), and one `sqlite3 -json` process per scope-resolution query.
 */
export interface SqlitePeersResult {
  /** Bindings written per run (each a new name, root scope), and the reads resolved per run. */
  bindings: number;
  reads: number;
  valueBytes: number;
  /** The frame depth the reads resolve from (each read walks the frame chain up to root scope). */
  readDepth: number;
  /** Our default SQLite engine (src/sqlite/engine.ts), whose figures are `ours` and `ratios`. */
  engine?: string;
  sqlite3?: string;
  ours: { write: OpsTiming; read: OpsTiming };
  peers: {
    'cli-per-statement': PeerTiming | Skipped;
    'cli-batched': PeerTiming | Skipped;
    'cli-json-read': PeerTiming | Skipped;
  };
  /** Our per-op time / the peer's per-op time (lower is better), one key per measured peer. */
  ratios: Record<string, number>;
  /** Every engine this Node runs (native, posix, wasm), timed in the same turns against the same peers. */
  engines?: Record<string, { write: OpsTiming; read: OpsTiming; ratios: Record<string, number> }>;
}

export interface MemoryResult {
  tree: string;
  files: number;
  bytes: number;
  /** Peak RSS of a `fingerprint` process on this tree. */
  peakRssMiB: number;
  /** Peak RSS above the same process on an empty directory. */
  growthMiB: number;
}

export interface StartupResult {
  binary: string;
  node: string;
  nodeVersion: string;
  /** The Node inside the binary (`--version --json`), or 'unknown' for a binary that cannot say. */
  binaryNodeVersion: string;
  /** Same Node in both: only then is `ratio` judged and gated (another Node starts at another speed). */
  comparable: boolean;
  runs: number;
  binaryMs: number;
  nodeMs: number;
  ratio: number;
}

export interface TargetResult {
  id: string;
  description: string;
  met: boolean | null;
  actual: string;
}

export interface BenchReport {
  schema: typeof BENCH_SCHEMA;
  version: typeof BENCH_VERSION;
  profile: Profile;
  startedAt: string;
  durationMs: number;
  environment: Record<string, string | number | boolean>;
  workloads: WorkloadResult[];
  receipts: ReceiptsResult | Skipped;
  backends: BackendOutcome[];
  /** Issue 3: our sqlite backend against the sqlite3 CLI (absent in reports from before it was measured). */
  sqlitePeers?: SqlitePeersResult | Skipped;
  memory: { trees: MemoryResult[]; boundMiB: number; bounded: boolean } | Skipped;
  startup: StartupResult | Skipped;
  /** Issue 35: per-operation cost as a run grows (only in a `--scale` run, which measures nothing else). */
  scale?: ScaleResult | Skipped;
  targets: TargetResult[];
  /** Every gated ratio under a stable dotted key (what `--compare` reads). */
  ratios: Record<string, number>;
}

export function isSkipped(v: unknown): v is Skipped {
  return typeof v === 'object' && v !== null && typeof (v as Skipped).skipped === 'string';
}

/** Issue 35: one backend's per-operation cost as one run grows (`bench --scale`). */
export interface ScalePoint {
  /** Bindings in the run, and as many statement events (a tenth as many segments and world-model commits). */
  size: number;
  /** How long growing from the previous size took (every call through the contract). */
  growMs: number;
  /** Heap and off-heap memory this process holds above what it held before the backend was opened (after a GC). */
  heldMiB: number;
  /** Median time of each timed operation at this size. */
  ops: Partial<Record<ScaleOpName, Timing>>;
}

export type ScaleOpName = ScaleOp;

export interface ScaleBackend {
  name: string;
  spec?: string;
  points: ScalePoint[];
  /** The least-squares slope of log(ms) on log(size): 0 flat, 1 linear in the run. */
  exponents: Partial<Record<ScaleOpName, number>>;
  /** Time at the largest size reached over time at the smallest. */
  growth: Partial<Record<ScaleOpName, number>>;
  /** Operations not timed, each with why (a capability not declared). */
  unsupported?: Partial<Record<ScaleOpName, string>>;
  /** Sizes the run did not reach within the budget, and why. */
  unreached?: { sizes: number[]; reason: string };
}

export type ScaleOutcome = ScaleBackend | ({ name: string; failed?: true } & Skipped);

export interface ScaleResult {
  sizes: number[];
  /** Samples per operation at each size. */
  samples: number;
  /** How long one backend's growing may take before its larger sizes are given up. */
  budgetMs: number;
  backends: ScaleOutcome[];
}
