import type { Edition } from '../core/editions.ts';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_SCHEMA, BENCH_VERSION, isSkipped, type BenchReport, type Profile } from './bench-report.ts';
import { benchBackends, type OpenBackend } from './bench-backends.ts';
import { benchMemory } from './bench-memory.ts';
import { benchReceipts } from './bench-receipts.ts';
import { benchSqlitePeers, sqlitePeerRatios } from './bench-sqlite-peers.ts';
import { benchScale, SCALE_PROFILE } from './bench-scale.ts';
import { benchStartup } from './bench-startup.ts';
import { benchWorkload, type Effort } from './bench-workload.ts';
import type { Candidate } from './candidates.ts';
import { describeEnvironment, loadAverage } from './environment.ts';
import { flattenRatios } from './flatten-ratios.ts';
import { evaluateTargets } from './targets.ts';
import { fileCount, generateWorkload, WORKLOADS, type WorkloadSpec } from './workloads.ts';

export interface BenchOptions {
  profile: Profile;
  env: Record<string, string | undefined>;
  /** Reactor state-dirs (`receipts.json` under each); absent means that section is skipped with a reason. */
  vectorsDir?: string;
  /** The built binary to time `--version` of, and the node to compare it with. */
  binary?: string;
  node?: string;
  /** argv prefix that starts this CLI again (for the memory probes). */
  self?: readonly string[];
  /** Backends to measure, and how to open one by name. */
  backends: readonly string[];
  openBackend: OpenBackend;
  /** A backend string as it may be printed (secrets masked); as given when absent. */
  showBackend?: (spec: string) => string;
  inBinary: boolean;
  /** Other implementations to check and time on each fingerprint workload, and how long one run may take. */
  candidates?: readonly Candidate[];
  candidateTimeoutMs?: number;
  /** Only the fingerprint workloads (the other sections are reported as skipped with this reason). */
  onlyFingerprint?: boolean;
  /** Only the backends section (plugin backends against ours); the others are reported as skipped. */
  onlyBackends?: boolean;
  /** Only the scale section (issue 35): each backend's per-operation cost as one run grows. */
  onlyScale?: boolean;
  /** The run sizes it grows through, instead of the profile's. */
  scaleSizes?: number[];
  /** How long each backend may grow, instead of the profile's budget. */
  scaleBudgetMs?: number;
  /** The edition the scale section grows each backend's storage in (absent: the backend's default). */
  scaleEdition?: Edition;
  /** Progress lines (stderr), so a long run shows where it is. */
  log: (line: string) => void;
}

const EFFORT: Record<Profile, Effort> = {
  full: { rounds: 3, inProcess: 5, peer: 2 },
  quick: { rounds: 1, inProcess: 3, peer: 1 },
};

/** Issue 3's run of bindings; one round (a run of spawned sqlite3 processes is ~100 s on a slow disk at 1,000). */
const SQLITE_PEER_BINDINGS: Record<Profile, number> = { full: 1000, quick: 100 };
const SQLITE_PEER_ROUNDS = 1;

/** A command candidate that takes longer on one workload is killed and reported as timed out. */
export const DEFAULT_CANDIDATE_TIMEOUT_MS = 60_000;

type Sections = Pick<
  BenchReport,
  'environment' | 'workloads' | 'receipts' | 'backends' | 'sqlitePeers' | 'memory' | 'startup' | 'scale'
>;

/** Generates the workloads in a temp dir, measures everything in one process, removes the temp dir. */
export async function runBench(opts: BenchOptions): Promise<BenchReport> {
  const started = { at: performance.now(), iso: new Date().toISOString() };
  const effort = EFFORT[opts.profile];
  const finish = (sections: Sections) => finishReport(opts.profile, started, sections);
  const backendsIn = (root: string) =>
    benchBackends(join(root, 'backends'), effort, opts.backends, opts.openBackend, opts.showBackend);
  const root = mkdtempSync(join(opts.env.PROSE_STATE_BENCH_TMP || tmpdir(), 'prose-state-bench-'));
  try {
    const environment = describeEnvironment(opts.env, opts.inBinary);
    if (opts.onlyScale) {
      const scale = await scaleSection(opts, join(root, 'scale'));
      return finish({ environment, workloads: [], backends: [], ...notRun('not run (--scale)'), scale });
    }
    if (opts.onlyBackends) {
      opts.log('bench: backends');
      const backends = await backendsIn(root);
      return finish({ environment, workloads: [], backends, ...notRun('not run (--only backends)') });
    }
    const trees = await fingerprintWorkloads(opts, effort, root);
    const workloads = trees.workloads;
    if (opts.onlyFingerprint)
      return finish({ environment, workloads, backends: [], ...notRun('not run (--only fingerprint)') });
    opts.log('bench: receipts');
    const receipts = benchReceipts(opts.vectorsDir, effort);
    opts.log('bench: backends');
    const backends = await backendsIn(root);
    opts.log(`bench: sqlite backend vs the sqlite3 CLI (${SQLITE_PEER_BINDINGS[opts.profile]} bindings)`);
    const sqlitePeers = await benchSqlitePeers(
      join(root, 'sqlite-peers'),
      SQLITE_PEER_ROUNDS,
      SQLITE_PEER_BINDINGS[opts.profile],
      opts.env,
    );
    opts.log('bench: peak memory');
    const empty = join(root, 'empty');
    mkdirSync(empty);
    const memory = benchMemory(memoryTrees(trees.specs, trees.dirs), empty, opts.self, opts.env);
    opts.log('bench: startup');
    const startup = benchStartup(opts.binary, opts.node, opts.profile === 'full' ? 20 : 5);
    return finish({ environment, workloads, receipts, backends, sqlitePeers, memory, startup });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** `--scale`: the profile's sizes, or the ones given, through every named backend. */
function scaleSection(opts: BenchOptions, root: string) {
  const plan = {
    ...SCALE_PROFILE[opts.profile],
    ...(opts.scaleSizes ? { sizes: opts.scaleSizes } : {}),
    ...(opts.scaleBudgetMs ? { budgetMs: opts.scaleBudgetMs } : {}),
    ...(opts.scaleEdition ? { edition: opts.scaleEdition } : {}),
  };
  opts.log(`bench: scale (${plan.sizes.join(', ')} bindings and events)`);
  const show = opts.showBackend ?? ((spec: string) => spec);
  return benchScale(root, plan, opts.backends, opts.openBackend, show, opts.log);
}

/** The sections a partial run (--only) does not measure, each skipped with the reason. */
function notRun(reason: string): Pick<Sections, 'receipts' | 'sqlitePeers' | 'memory' | 'startup'> {
  const skipped = { skipped: reason };
  return { receipts: skipped, sqlitePeers: skipped, memory: skipped, startup: skipped };
}

/** The report around the sections: its ratios flattened, the targets judged, the duration of the whole run. */
function finishReport(profile: BenchOptions['profile'], started: { at: number; iso: string }, sections: Sections) {
  const report: BenchReport = {
    schema: BENCH_SCHEMA,
    version: BENCH_VERSION,
    profile,
    startedAt: started.iso,
    durationMs: 0,
    // In this order whatever the run measured, so every report's JSON reads alike.
    environment: { ...sections.environment, loadAverageEnd: loadAverage() },
    workloads: sections.workloads,
    receipts: sections.receipts,
    backends: sections.backends,
    sqlitePeers: sections.sqlitePeers,
    memory: sections.memory,
    startup: sections.startup,
    ...(sections.scale ? { scale: sections.scale } : {}),
    targets: [],
    ratios: {},
  };
  report.ratios = { ...flattenRatios(report), ...sqlitePeerRatios(sections.sqlitePeers) };
  report.targets = evaluateTargets(report);
  report.durationMs = performance.now() - started.at;
  return report;
}

/** Generates every workload's tree, then measures the fingerprints on each in turn. */
async function fingerprintWorkloads(opts: BenchOptions, effort: Effort, root: string) {
  const specs = WORKLOADS[opts.profile];
  const dirs = specs.map((s) => {
    opts.log(`bench: generating ${s.name} (${s.description})`);
    return generateWorkload(join(root, 'trees'), s);
  });
  const workloads = [];
  for (const [i, s] of specs.entries()) {
    opts.log(`bench: fingerprint ${s.name}: ours, read-only walk, raw hash, peers`);
    workloads.push(
      await benchWorkload(dirs[i]!, s, effort, opts.env, {
        list: opts.candidates ?? [],
        timeoutMs: opts.candidateTimeoutMs ?? DEFAULT_CANDIDATE_TIMEOUT_MS,
      }),
    );
  }
  return { specs, dirs, workloads };
}

/** The trees whose peak RSS is measured: a directory of the small tree, every tree, the small one read in parallel. */
function memoryTrees(specs: readonly WorkloadSpec[], dirs: string[]): Parameters<typeof benchMemory>[0] {
  const small = specs[0]!;
  return [
    {
      name: `${small.name}/d00`,
      dir: join(dirs[0]!, 'd00'),
      files: small.perDir,
      bytes: small.perDir * small.fileBytes,
    },
    ...specs.map((s, i) => ({ name: s.name, dir: dirs[i]!, files: fileCount(s), bytes: fileCount(s) * s.fileBytes })),
    // The parallel reader holds up to its ring's cap read ahead: the many-file tree, read that way.
    {
      name: `${small.name}.allCores`,
      dir: dirs[0]!,
      files: fileCount(small),
      bytes: fileCount(small) * small.fileBytes,
      parallel: true,
    },
  ];
}

export { isSkipped };
