import type { BackendFactory } from '../../core/backend.ts';
import { DEFAULT_EDITION } from '../../core/editions.ts';
import { ProseError } from '../../core/errors.ts';
import type { Case, Suite } from '../../conformance/case-types.ts';
import { backendOfRun, parseEditionChoice, type EditionChoice } from '../../conformance/edition-runs.ts';
import type { RerunPlan } from '../../conformance/report-file/failed-cases.ts';
import { selectCases, usesWorkerProcesses } from '../../conformance/run-suite.ts';
import { checkZone } from '../../conformance/run-zone.ts';
import { parseShard, type Shard } from '../../conformance/shard.ts';
import type { TestOptions } from './test-options.ts';

/** What `test` does, decided from its options and the suite before any backend opens: pure, so specs test it. */
export type TestPlan = NothingToRerun | SuiteRun;

/** A rerun of a report in which nothing failed: said on stdout, exit 0. */
export interface NothingToRerun {
  kind: 'nothing';
  notes: string[];
  message: string;
}

export interface SuiteRun {
  kind: 'run';
  /** Lines for stderr before the run (a cut-off report, a shard without a seed). */
  notes: string[];
  filter: { areas: string[]; ids: string[] };
  /** Backend strings to open, in order. */
  backends: string[];
  /** The editions each backend is judged in (edition-runs.ts pairs them once the backends are open). */
  edition: EditionChoice;
  /** A rerun on the report's own backends runs on each only the cases that failed there (keyed by run name). */
  perBackend?: ReadonlyMap<string, string[]>;
  shard?: Shard;
  /** A saved report whose case durations balance the shards. */
  durations?: string;
  timeoutMs?: number;
  jobs: number;
  seed?: number;
  /** The time zone the backends run under (test --tz); absent, the seed picks one. */
  tz?: string;
  probe: boolean;
  quick: boolean;
  bail: boolean;
  verbose: boolean;
  reporter: string;
  reportDir?: string;
  expect?: string;
  /** The whole run's time limit (test --deadline). */
  deadlineMs?: number;
}

/** The plan of a run; a usage error (by name) for options that cannot run. `cores` is the default of --jobs. */
export function planTest(options: TestOptions, suite: Suite, rerun: RerunPlan | undefined, cores: number): TestPlan {
  const notes = (rerun?.cutOff ?? []).map(
    (b) => `note: the run of ${b} in the report was cut off; cases after the cut are not rerun\n`,
  );
  if (rerun && !rerun.failed.size)
    return {
      kind: 'nothing',
      notes,
      message: `nothing failed or errored in ${options.rerunFailed}: nothing to rerun\n`,
    };
  const filter = {
    areas: options.areas ?? [],
    ids: options.cases ?? [...new Set([...(rerun?.failed.values() ?? [])].flat())],
  };
  if (selectCases(suite, filter).length === 0) {
    throw new ProseError('E_USAGE', 'no case matches the --area/--case filters', {
      hint: `areas: ${[...new Set(suite.cases.map((c) => c.area))].join(', ')}`,
    });
  }
  const edition = parseEditionChoice(options.edition, '--edition');
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  if (options.durations !== undefined && !shard)
    throw new ProseError('E_USAGE', '--durations balances shards: give it with --shard I/N');
  const numbers = runNumbers(options, rerun, cores);
  if (shard && numbers.seed === undefined)
    notes.push(
      'note: --shard without --seed: this shard draws its own seed, and report merge refuses shards of different ' +
        'seeds; give every shard the same --seed\n',
    );
  // A rerun replays the zone its report ran under, as it does the seed, unless given another.
  const tz = options.tz ?? rerun?.tz;
  return {
    kind: 'run',
    notes,
    filter,
    // A rerun takes the backends its cases failed on, by name; a plugin's name may not open one, so --backend overrides.
    backends: options.backends ?? (rerun ? reportBackends(rerun) : ['all']),
    edition,
    ...(rerun && !options.backends && !options.cases ? { perBackend: rerun.failed } : {}),
    ...(shard ? { shard } : {}),
    ...(options.durations !== undefined ? { durations: options.durations } : {}),
    ...numbers,
    ...(tz !== undefined ? { tz: checkZone(tz) } : {}),
    probe: options.probe,
    quick: options.quick,
    bail: options.bail,
    verbose: options.verbose,
    reporter: options.reporter,
    ...(options.reportDir ? { reportDir: options.reportDir } : {}),
    ...(options.expect ? { expect: options.expect } : {}),
    ...(options.deadlineMs !== undefined ? { deadlineMs: options.deadlineMs } : {}),
  };
}

/** --timeout, --jobs and --seed, checked (a rerun keeps its report's seed unless given one). */
function runNumbers(
  options: TestOptions,
  rerun: RerunPlan | undefined,
  cores: number,
): { timeoutMs?: number; jobs: number; seed?: number } {
  const timeoutMs = options.timeout === undefined ? undefined : Number(options.timeout);
  if (timeoutMs !== undefined && !(Number.isSafeInteger(timeoutMs) && timeoutMs > 0))
    throw new ProseError('E_USAGE', '--timeout takes a positive number of milliseconds');
  const jobs = options.jobs === undefined ? cores : Number(options.jobs);
  if (!(Number.isSafeInteger(jobs) && jobs > 0)) throw new ProseError('E_USAGE', '--jobs takes a whole number above 0');
  const seed = options.seed === undefined ? rerun?.seed : Number(options.seed);
  if (seed !== undefined && !(Number.isSafeInteger(seed) && seed >= 0))
    throw new ProseError('E_USAGE', '--seed takes a whole number');
  return { ...(timeoutMs !== undefined ? { timeoutMs } : {}), jobs, ...(seed !== undefined ? { seed } : {}) };
}

/** The backends of a report's failed runs, each once (a backend failed in two editions is opened once). */
function reportBackends(rerun: RerunPlan): string[] {
  return [
    ...new Set([...rerun.failed.keys()].map((run) => backendOfRun(run, rerun.editions.get(run) ?? DEFAULT_EDITION))),
  ];
}

/** One runSuite call: these backends, these case ids; or a backend the report's failures were not seen on. */
export type Round = { factories: BackendFactory[]; ids: string[] } | { notInReport: string };

/**
 * The runSuite calls of a plan once its backends are open and paired with their editions: one over all of them, or
 * for a rerun on the report's own backends, one per run (backend and edition) with the ids that failed there. An
 * edition in which nothing failed is left out; a backend that opens under another name than the report's is a round
 * of its own that refuses to run (an empty id list would select every case).
 */
export function planRounds(plan: SuiteRun, factories: BackendFactory[]): Round[] {
  const perBackend = plan.perBackend;
  if (!perBackend) return [{ factories, ids: plan.filter.ids }];
  const backends = new Set(plan.backends);
  return factories.flatMap((f): Round[] => {
    const ids = perBackend.get(f.name);
    if (ids) return [{ factories: [f], ids }];
    return backends.has(backendOfRun(f.name, f.edition ?? DEFAULT_EDITION)) ? [] : [{ notInReport: f.name }];
  });
}

/**
 * Whether the case workers run this CLI's bundle: with more than one job, or a case that starts worker processes.
 * A module plugin is loaded by the worker too, and only the unbundled CLI (tsx) loads one written in TypeScript.
 */
export function needsWorkerBundle(jobs: number, share: readonly Case[], factories: readonly BackendFactory[]): boolean {
  return (jobs > 1 || share.some(usesWorkerProcesses)) && !factories.some((f) => f.spec?.startsWith('module:'));
}
