import { availableParallelism } from 'node:os';
import { resolveBackends } from '../backend-kinds.ts';
import type { BackendFactory } from '../../core/backend.ts';
import { resolveDecisions } from '../../core/decisions.ts';
import { ProseError } from '../../core/errors.ts';
import { exitCodeForClaims, worstExit, type CapabilityReport } from '../../conformance/probes/capability-report.ts';
import { loadExpectations } from '../../conformance/expectations.ts';
import { loadSuite } from '../../conformance/load-suite.ts';
import { countOutcomes, exitCodeFor } from '../../conformance/outcome.ts';
import { QUICK, quickSuite } from '../../conformance/quick.ts';
import { runSuite, selectCases, usesWorkerProcesses } from '../../conformance/run-suite.ts';
import { createReporters, REPORTERS } from '../../conformance/reporters/create-reporters.ts';
import { caseSources } from '../../conformance/case-source.ts';
import { readReport } from '../../conformance/report-file/read-report.ts';
import { rerunPlan } from '../../conformance/report-file/failed-cases.ts';
import { parseShard, shardCases } from '../../conformance/shard.ts';
import type { CaseResult } from '../../conformance/outcome.ts';
import { createFileReports, teeListener } from '../report-files.ts';
import { parseOptions } from '../args.ts';
import type { Command } from '../io.ts';
import { progressLine } from '../progress-line.ts';
import { defaultSuiteDir } from '../suite-dir.ts';
import { workerCommandFor } from '../worker-bundle.ts';
import { explainCase } from './explain.ts';

const HELP = `Usage: prose-state test [options]

Runs the conformance suite against one or more backends and reports every case.

Options:
  --backend NAME      backend to test (repeatable): filesystem, sqlite (sqlite:native, sqlite:posix, sqlite:wasm), postgres, postgres:URL, in-context,
                      module:PATH, exec:COMMAND, or all (every embedded backend). Default: all.  [PROSE_STATE_BACKEND]
  --area AREA         only cases of this area (repeatable)
  --case ID           only this case id (repeatable; a trailing * matches a prefix)
  --reporter NAME     ${REPORTERS.join('|')} (default pretty)                        [PROSE_STATE_REPORTER]
  --report-dir DIR    also write every report format into DIR (report.jsonl, report.md, ...)
  --suite DIR         the suite directory (default: the built-in suite)             [PROSE_STATE_SUITE_DIR]
  --expect FILE       expected outcomes per case id (fail or skip, with a reason)   [PROSE_STATE_EXPECT]
  --decision K=V      override a pinned decision, e.g. attachmentThresholdBytes=100000 (repeatable)
  --timeout MS        per-step timeout in milliseconds (default 30000)
  --seed N            seed of the crash area's kill points (default random, printed in the header)  [PROSE_STATE_SEED]
  --shard I/N         run the I-th of N deterministic shares of the cases (CI machines; join with \`report merge\`);
                      give every shard the same --seed
  --durations REPORT  with --shard: balance the shares by the case durations of an earlier JSON Lines report
  --rerun-failed REPORT  run only the cases that failed, errored or passed unexpectedly in a saved JSON Lines report,
                      on the backends they failed on (or on --backend), with its seed and decisions
  --jobs N            run up to N cases at once (default: this machine's cores); 1 runs them one after another.
                      The report is the same whatever N, in the same order (apart from durations)  [PROSE_STATE_JOBS]
  --quick             cap the crash, concurrency and mixed-writers steps at ${QUICK.kills} kills and ${QUICK.writers} writers of ${QUICK.each},
                      crash-states at ${QUICK.states} states (every other case as is); every report header says so: a quick run is not a full one
  --bail              stop at the first failed or errored case; the report says how many cases did not run
  --no-probe          do not probe the capability claims (faster; the report header says so)  [PROSE_STATE_NO_PROBE]
  --verbose           list passed and skipped cases too
  --explain CASE      run one case on one backend and print each step, every protocol message sent and the reply
                      (an exec: plugin's lines exactly as written), then the expectation against what was seen
  -h, --help          this text

Before its cases, each backend's capability claims are probed both ways on fresh storage: a declared capability
must work, an undeclared one must answer E_UNSUPPORTED. Every report shows the verdicts.

Exit codes: 0 all passed, 1 a case failed (or passed unexpectedly) or a capability claim is contradicted,
2 usage error, 3 harness or backend error (an errored case or probe).`;

export const testCommand: Command = {
  help: HELP,
  async run(argv, io) {
    const { values } = parseOptions(
      argv,
      {
        backend: { type: 'string', multiple: true, env: 'PROSE_STATE_BACKEND' },
        area: { type: 'string', multiple: true },
        case: { type: 'string', multiple: true },
        reporter: { type: 'string', env: 'PROSE_STATE_REPORTER' },
        'report-dir': { type: 'string' },
        suite: { type: 'string', env: 'PROSE_STATE_SUITE_DIR' },
        expect: { type: 'string', env: 'PROSE_STATE_EXPECT' },
        decision: { type: 'string', multiple: true },
        timeout: { type: 'string' },
        seed: { type: 'string', env: 'PROSE_STATE_SEED' },
        'no-probe': { type: 'boolean', env: 'PROSE_STATE_NO_PROBE' },
        jobs: { type: 'string', env: 'PROSE_STATE_JOBS' },
        quick: { type: 'boolean' },
        bail: { type: 'boolean' },
        verbose: { type: 'boolean' },
        explain: { type: 'string' },
        shard: { type: 'string' },
        durations: { type: 'string' },
        'rerun-failed': { type: 'string' },
      },
      io.env,
    );
    const overrides = Object.fromEntries(
      ((values.decision as string[] | undefined) ?? []).map((kv) => {
        const [k, v] = kv.split('=');
        if (!k || v === undefined || !/^\d+$/.test(v))
          throw new ProseError('E_USAGE', `--decision takes KEY=NUMBER, got ${JSON.stringify(kv)}`);
        return [k, Number(v)];
      }),
    );
    const suite = loadSuite((values.suite as string | undefined) ?? defaultSuiteDir(io.env));
    const rerun = values['rerun-failed'] ? rerunPlan(readReport(values['rerun-failed'] as string), suite) : undefined;
    // A rerun replays the report's decisions unless told others, so the same failure shows again.
    const decisions = resolveDecisions(rerun && !values.decision ? rerun.decisions : overrides);
    if (values.explain !== undefined)
      return explainCase(
        values.explain as string,
        values.backend as string[] | undefined,
        suite,
        decisions,
        io,
        values.timeout as string | undefined,
      );
    const filter = {
      areas: (values.area as string[] | undefined) ?? [],
      ids: (values.case as string[] | undefined) ?? [...new Set([...(rerun?.failed.values() ?? [])].flat())],
    };
    if (rerun) {
      for (const b of rerun.cutOff)
        io.stderr.write(`note: the run of ${b} in the report was cut off; cases after the cut are not rerun\n`);
      if (!rerun.failed.size) {
        io.stdout.write(`nothing failed or errored in ${values['rerun-failed'] as string}: nothing to rerun\n`);
        return 0;
      }
    }
    if (selectCases(suite, filter).length === 0) {
      throw new ProseError('E_USAGE', 'no case matches the --area/--case filters', {
        hint: `areas: ${[...new Set(suite.cases.map((c) => c.area))].join(', ')}`,
      });
    }
    const factories: BackendFactory[] = [];
    // A rerun takes the backends its cases failed on, by name; a plugin's name may not open one, so --backend overrides.
    const backendSpecs = (values.backend as string[] | undefined) ?? (rerun ? [...rerun.failed.keys()] : ['all']);
    for (const spec of backendSpecs)
      factories.push(...(await resolveBackends(spec, { env: io.env, cwd: io.cwd, suiteVersion: suite.version })));
    const shard = values.shard === undefined ? undefined : parseShard(values.shard as string);
    if (values.durations !== undefined && !shard)
      throw new ProseError('E_USAGE', '--durations balances shards: give it with --shard I/N');
    const durations = values.durations === undefined ? undefined : caseDurations(values.durations as string);
    const timeout = values.timeout === undefined ? undefined : Number(values.timeout);
    if (timeout !== undefined && !(Number.isSafeInteger(timeout) && timeout > 0))
      throw new ProseError('E_USAGE', '--timeout takes a positive number of milliseconds');
    const expectations = values.expect ? loadExpectations(values.expect as string) : undefined;
    const sources = caseSources(suite);
    const jobs = values.jobs === undefined ? availableParallelism() : Number(values.jobs);
    if (!(Number.isSafeInteger(jobs) && jobs > 0))
      throw new ProseError('E_USAGE', '--jobs takes a whole number above 0');
    const selected = selectCases(suite, filter);
    const share = shard ? shardCases(selected, shard, durations) : selected;
    const progress = progressLine(io.stderr, share.length * factories.length);
    const out = (s: string) => {
      progress.clear(); // the progress line is redrawn below what a reporter writes, never inside it
      io.stdout.write(s);
    };
    const reporter = createReporters((values.reporter as string | undefined) ?? 'pretty', out, {
      verbose: !!values.verbose,
      sources,
    });
    const files = values['report-dir'] ? createFileReports(values['report-dir'] as string, { sources }) : undefined;
    const claims: CapabilityReport[] = [];
    const collector = {
      header() {},
      capabilities: (r: CapabilityReport) => {
        claims.push(r);
      },
      result: () => progress.caseDone(),
      footer() {},
      finish() {},
    };
    const listener = teeListener(files ? teeListener(reporter, files.reporter) : reporter, collector);
    const seed = values.seed === undefined ? rerun?.seed : Number(values.seed);
    if (seed !== undefined && !(Number.isSafeInteger(seed) && seed >= 0))
      throw new ProseError('E_USAGE', '--seed takes a whole number');
    if (shard && seed === undefined)
      io.stderr.write(
        'note: --shard without --seed: this shard draws its own seed, and report merge refuses shards of different seeds; give every shard the same --seed\n',
      );
    const probe = !values['no-probe'];
    // A module plugin is loaded by the worker too, and only the unbundled CLI (tsx) loads one written in TypeScript.
    // With more than one job the in-process cases run in case workers too (runSuite's caseWorkers).
    const bundle =
      (jobs > 1 || share.some(usesWorkerProcesses)) && !factories.some((f) => f.spec?.startsWith('module:'));
    const workers = await workerCommandFor(bundle ? io.self : undefined);
    const run = (f: BackendFactory[], ids: string[]) =>
      runSuite({
        suite: values.quick ? quickSuite(suite) : suite,
        factories: f,
        decisions,
        filter: { ...filter, ids },
        listener,
        expectations,
        stepTimeoutMs: timeout,
        seed,
        workerCommand: workers.command ?? io.self,
        probe,
        jobs,
        caseWorkers: true,
        bail: !!values.bail,
        ...(values.quick ? { quick: QUICK } : {}),
        ...(progress.sink ? { progress: progress.sink } : {}),
        ...(shard ? { shard } : {}),
        ...(durations ? { durations } : {}),
      });
    const all: CaseResult[] = [];
    try {
      // A rerun on the report's own backends runs on each only what failed there.
      if (rerun && !values.backend && !values.case)
        for (const f of factories) {
          const ids = rerun.failed.get(f.name);
          // An empty id list would select every case: a backend that opens under another name is named, not run whole.
          if (!ids)
            throw new ProseError('E_USAGE', `backend ${f.name} is not one the report's failures were seen on`, {
              hint: 'pass --backend NAME for each backend to rerun on',
            });
          all.push(...(await run([f], ids)));
        }
      else all.push(...(await run(factories, filter.ids)));
    } finally {
      progress.clear();
      workers.dispose();
    }
    reporter.finish(all);
    files?.reporter.finish(all);
    files?.flush();
    return worstExit(exitCodeFor(countOutcomes(all)), exitCodeForClaims(claims));
  },
};

/** Milliseconds per case id from a saved report, summed over its backends (each shard runs every backend). */
function caseDurations(file: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const run of readReport(file).runs)
    for (const r of run.results) out.set(r.id, (out.get(r.id) ?? 0) + r.durationMs);
  return out;
}
