import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BackendFactory } from '../core/backend.ts';
import type { Decisions } from '../core/decisions.ts';
import { DEFAULT_EDITION, type Edition } from '../core/editions.ts';
import type { Case, Suite } from './case-types.ts';
import type { NotJudged } from './edition-runs.ts';
import { CaseWorkers, type CaseSettings } from './case-workers.ts';
import type { CapabilityReport } from './probes/capability-report.ts';
import { applyExpectation, expectationFor, type Expectations } from './expectations.ts';
import { countOutcomes, sumMetrics, type CaseResult, type Counts } from './outcome.ts';
import { runCase, type StepObserver } from './run-case.ts';
import type { ProgressSink } from './progress.ts';
import type { QuickCounts } from './quick-counts.ts';
import type { FindingsFilter } from './run-subagent.ts';
import { probeBackend } from './probes/run-probes.ts';
import { shardCases, type Shard } from './shard.ts';
import { stepSlots, stepWorkers } from './steps/step-kinds.ts';
import { Slots, type UnitKind } from './slots.ts';
import { UnitQueue } from './unit-queue.ts';
import { enterZone, zoneForSeed } from './run-zone.ts';
import { RunDeadline, type DeadlineOption } from './run-deadline.ts';

/** How long cases still running past a deadline may take to end once their processes are killed. */
const DEADLINE_GRACE_MS = 3000;

export interface RunHeader {
  suite: { name: string; version: string };
  backend: {
    name: string;
    kind: string;
    capabilities: readonly string[];
    description: string;
    settings?: Record<string, string>;
  };
  /** The edition whose text the backend is judged by (test --edition); a report written before editions: v0. */
  edition: Edition;
  decisions: Decisions;
  cases: number;
  /** The seed of the crash area's kill points: rerun with --seed to replay. */
  seed: number;
  /** The time zone (TZ) the backend ran under, picked by the seed unless given: rerun with --tz to replay (absent in a
   * report written before runs picked zones: the machine's own). */
  tz?: string;
  /** Whether the capability claims are probed in this run (`skipped`: --no-probe, or a caller without a prober). */
  probes: 'run' | 'skipped';
  /** Present when the run took one share of the cases (test --shard); `report merge` joins the shares. */
  shard?: Shard;
  /** Present in a quick run (test --quick): the worker steps ran with these smaller counts, so it is no full run. */
  quick?: QuickCounts;
}

/** Receives results as they happen, so a JSON Lines report streams and a cut-off run has no footer. */
export interface Listener {
  header(h: RunHeader): void;
  /** The backend's capability probes, after its header and before its cases (only when the run probes). */
  capabilities?(r: CapabilityReport): void;
  result(r: CaseResult): void;
  footer(backend: string, counts: Counts, extra: Record<string, unknown>): void;
  /** A backend left out of the run: the edition asked for is one it does not declare (told before any header). */
  notJudged?(n: NotJudged): void;
}

export interface RunOptions {
  suite: Suite;
  factories: BackendFactory[];
  decisions: Decisions;
  filter: { areas: string[]; ids: string[] };
  listener: Listener;
  expectations?: Expectations;
  stepTimeoutMs?: number;
  /** Stop a backend's run at its first failed or errored case (selftest needs one kill, not all). */
  stopAtFirstFailure?: boolean;
  /** argv that starts this CLI in a child process, for the crash and concurrency areas. */
  workerCommand?: readonly string[];
  /** Seed of the crash area's kill points; random when absent (and printed in the header). */
  seed?: number;
  /** The time zone the backends run under (test --tz); absent, one of RUN_ZONES picked by the seed. */
  tz?: string;
  /** Probes each backend's capability claims on fresh storage before its cases; absent or false, they are not probed. */
  probe?: boolean;
  /** Told each step of each case before it runs (test --explain). */
  onStep?: StepObserver;
  /** selftest only: a checker bug applied to every subagent step's findings. */
  checkerBug?: FindingsFilter;
  /** Run only this shard's share of the selected cases (balanced by `durations`, ms per case id, when given). */
  shard?: Shard;
  durations?: ReadonlyMap<string, number>;
  /** How many cases may run at once (test --jobs); 1, the default, runs them one after another. */
  jobs?: number;
  /** Stop the whole run at the first failed or errored case (test --bail); the last footer says how many did not run. */
  bail?: boolean;
  /**
   * A whole-run deadline (test --deadline): past it no case starts, cases in flight are given up (their worker
   * processes killed) and the last footer says how many did not run or finish.
   */
  deadline?: DeadlineOption;
  /** Called once when the deadline passes, to end what the caller started outside the runner (plugin processes). */
  onDeadline?: () => void;
  /** The counts a quick run (test --quick) scaled the suite's worker steps to; named in every header. */
  quick?: QuickCounts;
  /** Told the crash and worker areas' progress (test's TTY progress line). */
  progress?: ProgressSink;
  /**
   * With more than one job: run the cases that would compute in this process in child processes of `workerCommand`
   * instead (`prose-state case-worker`), beside the cases that time worker processes. Only for backends a backend
   * string recreates (not plugins), and not with `onStep` or `checkerBug`, which live in this process.
   */
  caseWorkers?: boolean;
}

export function selectCases(suite: Suite, filter: RunOptions['filter']): Case[] {
  return suite.cases.filter(
    (c) =>
      (filter.areas.length === 0 || filter.areas.includes(c.area)) &&
      (filter.ids.length === 0 ||
        filter.ids.some((id) => c.id === id || (id.endsWith('*') && c.id.startsWith(id.slice(0, -1))))),
  );
}

/** Runs the selected cases on every factory, one fresh temp directory per case. Returns all results. */
export async function runSuite(opts: RunOptions): Promise<CaseResult[]> {
  const selected = selectCases(opts.suite, opts.filter);
  const cases = opts.shard ? shardCases(selected, opts.shard, opts.durations) : selected;
  const root = mkdtempSync(join(tmpdir(), 'prose-state-'));
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31);
  const jobs = Math.max(1, opts.jobs ?? 1);
  const tz = opts.tz ?? zoneForSeed(seed);
  // Before any process starts: case workers, worker processes and exec plugins inherit TZ from this process.
  const leaveZone = enterZone(tz);
  const slots = new Slots(jobs);
  // A plugin's backend runs one case at a time: an exec plugin is one session (one child process, one pipe) per
  // backend and a module plugin shares its process's state; neither promises that two cases may run at once.
  const lanes = opts.factories.map((f) => (isPlugin(f) ? new Slots(1) : undefined));
  const pool =
    jobs > 1 && opts.caseWorkers && opts.workerCommand && !opts.onStep && !opts.checkerBug
      ? new CaseWorkers(opts.workerCommand)
      : undefined;
  const deadline = opts.deadline ? new RunDeadline(opts.deadline) : undefined;
  void deadline?.reached.then(() => {
    pool?.kill();
    opts.onDeadline?.();
  });
  const queue = new UnitQueue(slots, jobs, lanes, cases.length, { ...opts, deadline });
  const run: SuiteRun = { opts, cases, root, seed, tz, jobs, slots, pool, queue, deadline };
  try {
    return await tellUnits(run, queueUnits(run));
  } finally {
    // Cases still running when a run stops (--bail) finish before their storage is removed; past a deadline they
    // end fast (their processes are killed), and one that does not is left behind rather than hold the run.
    await (deadline?.passed ? Promise.race([queue.drain(), sleep(DEADLINE_GRACE_MS)]) : queue.drain());
    deadline?.clear();
    pool?.close();
    leaveZone();
    rmSync(root, { recursive: true, force: true });
  }
}

/** One run of the suite under way: its cases, its storage root, its seed, and how it schedules its units. */
interface SuiteRun {
  opts: RunOptions;
  cases: Case[];
  root: string;
  seed: number;
  tz: string;
  jobs: number;
  slots: Slots;
  pool: CaseWorkers | undefined;
  queue: UnitQueue;
  deadline: RunDeadline | undefined;
}

/** One backend's part of the run: its probes and its cases, each a pending result. */
interface Unit {
  factory: BackendFactory;
  probe: Promise<CapabilityReport | undefined> | undefined;
  cases: Promise<CaseResult | undefined>[];
}

/**
 * Every unit is queued at once (the slots let `jobs` of them run); results are told in the sequential order. With
 * more than one job the cases that time worker processes of every backend are queued first, so they run side by side
 * (they are most of a full run, and may not share the loop with in-process cases), and the cases that compute
 * follow, in case workers beside them when there is a pool; with one job the queue is the sequential order itself.
 */
function queueUnits(run: SuiteRun): Unit[] {
  const { opts, cases, root, jobs, slots, pool, queue } = run;
  const elsewhere = (f: BackendFactory, c: Case) => !!pool && !isPlugin(f) && !!f.spec && kindOf(c) === 'in-process';
  const queued = opts.factories.map(() => new Map<number, Promise<CaseResult | undefined>>());
  const queueCase = (f: number, n: number) => {
    const there = elsewhere(opts.factories[f]!, cases[n]!);
    if (there) slots.announceElsewhere();
    queued[f]!.set(
      n,
      queue.start(f, n, weightOf(cases[n]!, jobs), there ? 'elsewhere' : kindOf(cases[n]!), () =>
        runOne(run, opts.factories[f]!, cases[n]!, join(root, `${f}-${n}`), there ? pool : undefined),
      ),
    );
    return queued[f]!;
  };
  if (jobs > 1) opts.factories.forEach((_, f) => cases.forEach((c, n) => kindOf(c) === 'timed' && queueCase(f, n)));
  return opts.factories.map((factory, f) => ({
    factory,
    probe: opts.probe
      ? queue.start(f, -0.5, 1, 'in-process', () =>
          probeBackend(factory, opts.decisions, join(root, `${f}-probes`), opts.stepTimeoutMs ?? 30_000),
        )
      : undefined,
    cases: cases.map((_, n) => (queued[f]!.has(n) ? queued[f]! : queueCase(f, n)).get(n)!),
  }));
}

/**
 * Tells each backend's header, probes, results and footer in order, as its units finish; --bail stops the telling,
 * and so does the deadline: a result not there by then is not waited for.
 */
async function tellUnits(run: SuiteRun, units: Unit[]): Promise<CaseResult[]> {
  const { opts, cases, deadline } = run;
  const all: CaseResult[] = [];
  let told = 0;
  let stopped: 'bail' | 'deadline' | undefined;
  const wait = <T>(p: Promise<T>): Promise<T | typeof PAST> =>
    deadline ? Promise.race([p, deadline.reached.then((): typeof PAST => PAST)]) : p;
  for (const unit of units) {
    if (stopped) break;
    opts.listener.header(headerOf(run, unit.factory));
    const report = await wait(Promise.resolve(unit.probe));
    if (report === PAST) stopped = 'deadline';
    else if (report) opts.listener.capabilities?.(report);
    const results: CaseResult[] = [];
    for (const pending of stopped ? [] : unit.cases) {
      const r = await wait(pending);
      if (r === PAST || (!r && deadline?.passed)) stopped = 'deadline';
      if (!r || r === PAST) break;
      results.push(r);
      told++;
      opts.listener.result(r);
      if (r.outcome.status === 'failed' || r.outcome.status === 'errored') {
        if (opts.bail) stopped = 'bail';
        if (stopped || opts.stopAtFirstFailure) break;
      }
    }
    opts.listener.footer(unit.factory.name, countOutcomes(results), {
      ...sumMetrics(results),
      ...(stopped ? { cutShort: cutShort(run, stopped, opts.factories.length * cases.length - told) } : {}),
    });
    all.push(...results);
  }
  return all;
}

const PAST: unique symbol = Symbol('deadline passed');

function cutShort({ deadline }: SuiteRun, by: 'bail' | 'deadline', notRun: number): Record<string, unknown> {
  return by === 'deadline' ? { by, notRun, deadlineMs: deadline!.option.ms } : { by, notRun };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

function headerOf({ opts, cases, seed, tz }: SuiteRun, factory: BackendFactory): RunHeader {
  return {
    suite: { name: opts.suite.name, version: opts.suite.version },
    backend: {
      name: factory.name,
      kind: factory.kind,
      capabilities: factory.capabilities,
      description: factory.description,
      ...(factory.settings ? { settings: factory.settings } : {}),
    },
    edition: factory.edition ?? DEFAULT_EDITION,
    decisions: opts.decisions,
    cases: cases.length,
    seed,
    tz,
    probes: opts.probe ? 'run' : 'skipped',
    ...(opts.shard ? { shard: opts.shard } : {}),
    ...(opts.quick ? { quick: opts.quick } : {}),
  };
}

async function runOne(
  { opts, seed, deadline }: SuiteRun,
  factory: BackendFactory,
  c: Case,
  dir: string,
  pool: CaseWorkers | undefined,
): Promise<CaseResult> {
  const started = performance.now();
  // A skip expectation means the case is not run at all (it may hang or harm the backend).
  const skip = expectationFor(opts.expectations, factory.name, c.id)?.outcome === 'skip';
  const settings: CaseSettings = {
    decisions: opts.decisions,
    dir,
    stepTimeoutMs: opts.stepTimeoutMs ?? 30_000,
    seed: caseSeed(seed, c.id),
    runSeed: seed,
    ...(opts.workerCommand ? { workerCommand: opts.workerCommand } : {}),
  };
  const raw = skip
    ? undefined
    : pool
      ? await pool.run({ spec: factory.spec!, edition: factory.edition ?? DEFAULT_EDITION, case: c, ...settings })
      : await runCase(c, {
          factory,
          ...settings,
          ...(opts.onStep ? { onStep: opts.onStep } : {}),
          ...(opts.checkerBug ? { checkerBug: opts.checkerBug } : {}),
          ...(opts.progress ? { progress: opts.progress, caseId: c.id } : {}),
          ...(deadline ? { runSignal: deadline.signal } : {}),
        });
  const outcome = applyExpectation(opts.expectations, factory.name, c.id, raw ?? { status: 'skipped', reason: '' });
  return {
    backend: factory.name,
    id: c.id,
    area: c.area,
    title: c.title,
    spec: c.spec,
    durationMs: Math.round(performance.now() - started),
    outcome,
  };
}

/**
 * How much of the machine a case takes, in slots: one for a case run in this process or a crash case (one writer at a
 * time, the next one loading beside it); half for a concurrency case with more than one job: its writers start at
 * once but take turns on the storage's one lock, and the native SQLite engine pauses a writer after its commit while
 * others write (the concurrency area used 0.67 of 2 cores, 19.7 s CPU in 29.3 s, when its cases took every slot;
 * `--quick --backend sqlite` spent 12 s of its 22 s on its four concurrency cases one after another, each mostly
 * waiting). A mixed-writers case keeps `sqlite3` processes starting all the time (one per INSERT and per read), so it
 * takes every slot. With one job every case takes the one slot: the sequential run.
 */
function weightOf(c: Case, jobs: number): number {
  return Math.min(stepSlots(c.steps, jobs), jobs);
}

/** Whether a case starts worker processes of the CLI (a step of a kind that declares `workers`). */
export function usesWorkerProcesses(c: Case): boolean {
  return stepWorkers(c.steps) !== undefined;
}

function isPlugin(f: BackendFactory): boolean {
  return !!f.spec && /^(exec|module):/.test(f.spec);
}

/** Cases whose steps time worker processes (a step of a kind with `workers: 'timed'`). */
function kindOf(c: Case): UnitKind {
  return stepWorkers(c.steps) === 'timed' ? 'timed' : 'in-process';
}

/** Each case gets its own seed from the run's, so cases do not share kill points but all replay from one number. */
function caseSeed(seed: number, id: string): number {
  let h = seed >>> 0;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
