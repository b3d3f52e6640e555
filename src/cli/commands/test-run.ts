import type { BackendFactory } from '../../core/backend.ts';
import type { Decisions } from '../../core/decisions.ts';
import { ProseError } from '../../core/errors.ts';
import type { Suite } from '../../conformance/case-types.ts';
import { caseSources } from '../../conformance/case-source.ts';
import { editionRuns } from '../../conformance/edition-runs.ts';
import { loadExpectations } from '../../conformance/expectations.ts';
import { countOutcomes, exitCodeFor, type CaseResult } from '../../conformance/outcome.ts';
import { exitCodeForClaims, worstExit, type CapabilityReport } from '../../conformance/probes/capability-report.ts';
import { QUICK, quickSuite } from '../../conformance/quick.ts';
import { readReport } from '../../conformance/report-file/read-report.ts';
import { createReporters } from '../../conformance/reporters/create-reporters.ts';
import type { Reporter } from '../../conformance/reporters/reporter.ts';
import { runSuite, selectCases } from '../../conformance/run-suite.ts';
import { shardCases } from '../../conformance/shard.ts';
import { resolveBackends } from '../backend-kinds.ts';
import type { CliIo } from '../io.ts';
import { progressLine } from '../progress-line.ts';
import { createFileReports, teeListener } from '../report-files.ts';
import { endAllGroups, refuseNewGroups } from '../../plugin/process-groups.ts';
import { EXIT } from '../io.ts';
import { workerCommandFor } from '../worker-bundle.ts';
import { needsWorkerBundle, planRounds, type SuiteRun } from './test-plan.ts';

/** Runs a planned suite run: opens its backends, tells every listener, and returns the run's exit code. */
export async function runPlan(plan: SuiteRun, suite: Suite, decisions: Decisions, io: CliIo): Promise<number> {
  const opened: BackendFactory[] = [];
  for (const spec of plan.backends)
    opened.push(...(await resolveBackends(spec, { env: io.env, cwd: io.cwd, suiteVersion: suite.version })));
  const { judged: factories, notJudged } = editionRuns(opened, plan.edition);
  const durations = plan.durations === undefined ? undefined : caseDurations(plan.durations);
  const expectations = plan.expect ? loadExpectations(plan.expect) : undefined;
  const selected = selectCases(suite, plan.filter);
  const share = plan.shard ? shardCases(selected, plan.shard, durations) : selected;
  const listeners = createListeners(plan, suite, io, share.length * factories.length);
  for (const n of notJudged) listeners.listener.notJudged?.(n);
  const workers = await workerCommandFor(needsWorkerBundle(plan.jobs, share, factories) ? io.self : undefined);
  // One deadline for every round; past it the plugins' process groups end, so a hung plugin call ends with them.
  const deadline = plan.deadlineMs === undefined ? undefined : { ms: plan.deadlineMs, startedAt: performance.now() };
  const run = (f: BackendFactory[], ids: string[]) =>
    runSuite({
      suite: plan.quick ? quickSuite(suite) : suite,
      factories: f,
      decisions,
      filter: { ...plan.filter, ids },
      listener: listeners.listener,
      expectations,
      stepTimeoutMs: plan.timeoutMs,
      seed: plan.seed,
      ...(plan.tz !== undefined ? { tz: plan.tz } : {}),
      workerCommand: workers.command ?? io.self,
      probe: plan.probe,
      jobs: plan.jobs,
      caseWorkers: true,
      bail: plan.bail,
      ...(plan.quick ? { quick: QUICK } : {}),
      ...(listeners.progress.sink ? { progress: listeners.progress.sink } : {}),
      ...(plan.shard ? { shard: plan.shard } : {}),
      ...(durations ? { durations } : {}),
      ...(deadline ? { deadline, onDeadline: () => endPlugins(deadline.ms) } : {}),
    });
  const all: CaseResult[] = [];
  try {
    for (const round of planRounds(plan, factories)) {
      if ('notInReport' in round)
        throw new ProseError('E_USAGE', `backend ${round.notInReport} is not one the report's failures were seen on`, {
          hint: 'pass --backend NAME for each backend to rerun on',
        });
      all.push(...(await run(round.factories, round.ids)));
      if (listeners.deadlinePassed()) break; // a later round would start past the deadline
    }
  } finally {
    listeners.progress.clear();
    workers.dispose();
  }
  listeners.finish(all);
  // A run cut short by its deadline is not a complete run, whatever the cases that did run say (the report does).
  if (listeners.deadlinePassed()) return EXIT.harness;
  return worstExit(exitCodeFor(countOutcomes(all)), exitCodeForClaims(listeners.claims));
}

/** Past the deadline: the plugins' processes end, and none starts again (a case in flight would start one). */
function endPlugins(ms: number): void {
  refuseNewGroups(`the run's deadline (--deadline, ${ms / 1000} s) passed`);
  endAllGroups();
}

/**
 * Who hears the run: the chosen reporter on stdout, the report files of --report-dir, the progress line on stderr
 * and a collector of the capability verdicts (they decide the exit code with the cases).
 */
function createListeners(plan: SuiteRun, suite: Suite, io: CliIo, total: number) {
  const sources = caseSources(suite);
  const progress = progressLine(io.stderr, total);
  const out = (s: string) => {
    progress.clear(); // the progress line is redrawn below what a reporter writes, never inside it
    io.stdout.write(s);
  };
  const reporter = createReporters(plan.reporter, out, { verbose: plan.verbose, sources });
  const files = plan.reportDir ? createFileReports(plan.reportDir, { sources }) : undefined;
  const claims: CapabilityReport[] = [];
  let deadlinePassed = false;
  const collector: Reporter = {
    header() {},
    capabilities: (r: CapabilityReport) => {
      claims.push(r);
    },
    result: () => progress.caseDone(),
    footer(_backend, _counts, extra) {
      if ((extra.cutShort as { by?: string } | undefined)?.by === 'deadline') deadlinePassed = true;
    },
    finish() {},
  };
  return {
    listener: teeListener(files ? teeListener(reporter, files.reporter) : reporter, collector),
    progress,
    claims,
    deadlinePassed: () => deadlinePassed,
    finish(all: CaseResult[]) {
      reporter.finish(all);
      files?.reporter.finish(all);
      files?.flush();
    },
  };
}

/** Milliseconds per case id from a saved report, summed over its backends (each shard runs every backend). */
function caseDurations(file: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const run of readReport(file).runs)
    for (const r of run.results) out.set(r.id, (out.get(r.id) ?? 0) + r.durationMs);
  return out;
}
