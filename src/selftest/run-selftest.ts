import type { Decisions } from '../core/decisions.ts';
import { DEFAULT_EDITION, type Edition } from '../core/editions.ts';
import type { Suite } from '../conformance/case-types.ts';
import type { CaseResult } from '../conformance/outcome.ts';
import { runSuite } from '../conformance/run-suite.ts';
import { inEditionOf, referenceOf, type Mutant } from './mutant.ts';
import { CONTROL, CONTROLS } from './mutants/index.ts';
import { judgedUnder, pinnedGood } from './pinned-reference.ts';

export interface MutantVerdict {
  mutant: string;
  bug: string;
  /** The edition it was judged in: its storage's tree and the reference results its kills are held to. */
  edition: Edition;
  /** The readings it was judged under instead of the defaults (Mutant.pinned), when any. */
  pinned?: Record<string, unknown>;
  /** The case that caught it first (failed or errored on the mutant while it passes on the reference backend). */
  killedBy: string[];
  /** What the first killing case saw (its failure or error), so a kill of the control can be diagnosed. */
  evidence?: string;
}

export interface SelftestResult {
  /** The control (the mutant harness with no bug) must survive; when it is killed the verdicts mean nothing. */
  control: MutantVerdict;
  verdicts: MutantVerdict[];
  killed: number;
  total: number;
  /** Cases that did not pass on the unmutated backend: a kill by them proves nothing, so they are left out. */
  unreliable: string[];
}

const silent = { header() {}, result() {}, footer() {} };

/**
 * The cases that pass on each reference backend (`filesystem`, `sqlite` when a mutant of it is chosen,
 * `filesystem@current` when a mutant judged in the current edition is): keyed as `referenceOf` names them.
 */
export type GoodCases = Record<string, ReadonlySet<string>>;

/** Judges the mutants (after the control survived) and tells each verdict, in the mutants' order. */
export type MutantJudge = (
  mutants: readonly Mutant[],
  good: GoodCases,
  onVerdict: (v: MutantVerdict) => void,
) => Promise<MutantVerdict[]>;

/** How the run uses the machine: `jobs` cases of the control at once, and who judges the mutants. */
export interface SelftestRun {
  workerCommand?: readonly string[];
  jobs?: number;
  /** Default: one mutant after another in this process (`judgeInLanes` spreads them over child processes). */
  judge?: MutantJudge;
}

/**
 * Runs the suite on every mutant. A mutant is killed when a case that passes on the reference backend fails or
 * errors on it. Reference results come first so a flaky or failing case never counts as a kill.
 */
export async function runSelftest(
  suite: Suite,
  mutants: readonly Mutant[],
  decisions: Decisions,
  reference: CaseResult[],
  onVerdict: (v: MutantVerdict) => void,
  run: SelftestRun = {},
): Promise<SelftestResult> {
  // The reference results of each backend a mutant is made of (the CLI runs every one the chosen mutants name).
  const goodOn = (backend: string) =>
    new Set(reference.filter((r) => r.backend === backend && r.outcome.status === 'passed').map((r) => r.id));
  const good: GoodCases = { filesystem: goodOn('filesystem') };
  for (const m of mutants) good[referenceOf(m)] ??= goodOn(referenceOf(m));
  const unreliable = [
    ...new Set(
      reference.filter((r) => r.outcome.status !== 'passed' && r.outcome.status !== 'skipped').map((r) => r.id),
    ),
  ];
  const control = await judgeControls(mutants, suite, good, decisions, run);
  if (control.killedBy.length > 0) return { control, verdicts: [], killed: 0, total: mutants.length, unreliable };
  const inOrder: MutantJudge = async (ms, g, tell) => {
    const out: MutantVerdict[] = [];
    for (const m of ms) {
      out.push(await judgeMutant(m, suite, g, decisions, run.workerCommand));
      tell(out[out.length - 1]!);
    }
    return out;
  };
  const verdicts = await (run.judge ?? inOrder)(mutants, good, onVerdict);
  return {
    control,
    verdicts,
    killed: verdicts.filter((v) => v.killedBy.length > 0).length,
    total: verdicts.length,
    unreliable,
  };
}

/**
 * The control in every edition a mutant is judged in (v0 always), of the backend its mutants are made of past v0 (the
 * sqlite or postgres control for such a mutant judged in the current edition; in v0 the filesystem control alone): it
 * runs every case that passes on its reference backend in that edition and must survive them all. Answers the first
 * one killed, else the v0 control. The v0 control's cases run side by side in case workers with jobs; another
 * edition's, in this process (they are the few areas its mutants name, and a case worker rebuilds its backend from
 * the backend string alone).
 */
async function judgeControls(
  mutants: readonly Mutant[],
  suite: Suite,
  good: GoodCases,
  decisions: Decisions,
  run: SelftestRun,
): Promise<MutantVerdict> {
  const controls = new Map<string, Mutant>([[referenceOf(CONTROL), CONTROL]]);
  for (const m of mutants) {
    const edition = m.edition ?? DEFAULT_EDITION;
    const own = m.reference && edition !== DEFAULT_EDITION ? CONTROLS[m.reference] : CONTROL;
    const control = inEditionOf(own, edition);
    if (!controls.has(referenceOf(control))) controls.set(referenceOf(control), control);
  }
  let first: MutantVerdict | undefined;
  for (const control of controls.values()) {
    const jobs = (control.edition ?? DEFAULT_EDITION) === DEFAULT_EDITION ? run.jobs : 1;
    const verdict = await judgeMutant(control, suite, good, decisions, run.workerCommand, jobs);
    if (verdict.killedBy.length > 0) return verdict;
    first ??= verdict;
  }
  return first!;
}

/**
 * One mutant's verdict, held to the cases that pass on the backend it is a mutant of, in its edition. With more than one job its
 * cases run side by side (only the control's: a mutant stops at its first kill, so its cases run one at a time).
 */
export function judgeMutant(
  m: Mutant,
  suite: Suite,
  good: GoodCases,
  decisions: Decisions,
  workerCommand?: readonly string[],
  jobs = 1,
): Promise<MutantVerdict> {
  if (m.pinned) {
    const judged = judgedUnder(m, decisions);
    return pinnedGood(m, suite, judged).then((g) => verdictOf(m, suite, g, judged, workerCommand, jobs));
  }
  return verdictOf(m, suite, new Set(good[referenceOf(m)] ?? []), decisions, workerCommand, jobs);
}

async function verdictOf(
  m: Mutant,
  suite: Suite,
  good: Set<string>,
  decisions: Decisions,
  workerCommand: readonly string[] | undefined,
  jobs: number,
): Promise<MutantVerdict> {
  const results = await runSuite({
    suite: fastFirst(suite),
    factories: [m.factory],
    decisions,
    filter: { areas: [], ids: [...good] },
    listener: silent,
    stopAtFirstFailure: true,
    workerCommand,
    ...(jobs > 1 ? { jobs, caseWorkers: true } : {}),
    ...(m.checker ? { checkerBug: m.checker } : {}),
  });
  const kills = results.filter(
    (r) => good.has(r.id) && (r.outcome.status === 'failed' || r.outcome.status === 'errored'),
  );
  const first = kills[0]?.outcome;
  const evidence =
    first?.status === 'failed'
      ? first.message
      : first?.status === 'errored'
        ? `${first.error.code}: ${first.error.message}`
        : undefined;
  return {
    mutant: m.name,
    bug: m.bug,
    edition: m.edition ?? DEFAULT_EDITION,
    ...(m.pinned ? { pinned: { ...m.pinned } } : {}),
    killedBy: kills.map((r) => r.id),
    ...(evidence !== undefined ? { evidence } : {}),
  };
}

/**
 * One kill is enough, so the cheap cases go first: plain ones, then those with long repeats, and last the crash
 * and concurrency cases, which start worker processes (a mutant that survives to them pays for them once).
 */
function fastFirst(suite: Suite): Suite {
  const cost = (c: Suite['cases'][number]) =>
    c.steps.some(
      (s) => s.kind === 'crash' || s.kind === 'crash-states' || s.kind === 'concurrent' || s.kind === 'mixed-writers',
    )
      ? 2
      : c.steps.some((s) => s.kind === 'repeat')
        ? 1
        : 0;
  return { ...suite, cases: [...suite.cases].sort((a, b) => cost(a) - cost(b)) };
}
