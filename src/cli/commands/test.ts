import { availableParallelism } from 'node:os';
import { resolveDecisions } from '../../core/decisions.ts';
import { parseEditionChoice } from '../../conformance/edition-runs.ts';
import { QUICK } from '../../conformance/quick.ts';
import { REPORTERS } from '../../conformance/reporters/create-reporters.ts';
import { readReport } from '../../conformance/report-file/read-report.ts';
import { rerunPlan } from '../../conformance/report-file/failed-cases.ts';
import { EXIT, type Command } from '../io.ts';
import { loadCliSuite } from '../suite-cache-for.ts';
import { defaultSuiteDir } from '../suite-dir.ts';
import { explainCase } from './explain.ts';
import { parseTestOptions } from './test-options.ts';
import { planTest } from './test-plan.ts';
import { runPlan } from './test-run.ts';
const HELP = `Usage: prose-state test [options]

Runs the conformance suite against one or more backends and reports every case.

Options:
  --backend NAME      backend to test (repeatable): filesystem, sqlite (sqlite:native, sqlite:posix, sqlite:wasm), postgres, postgres:URL, in-context,
                      module:PATH, exec:COMMAND, or all (every embedded backend). Default: all.  [PROSE_STATE_BACKEND]
  --edition EDITION   judge each backend by this edition's text: v0, current, or all (each edition a backend
                      declares; v0 when it declares none). Default: all. A run in v0 keeps the backend's name,
                      one in another edition is named NAME@EDITION                    [PROSE_STATE_EDITION]
  --area AREA         only cases of this area (repeatable)
  --case ID           only this case id (repeatable; a trailing * matches a prefix)
  --reporter NAME     ${REPORTERS.join('|')} (default pretty)                        [PROSE_STATE_REPORTER]
  --report-dir DIR    also write every report format into DIR (report.jsonl, report.md, ...)
  --suite DIR         the suite directory (default: the built-in suite)             [PROSE_STATE_SUITE_DIR]
  --expect FILE       expected outcomes per case id (fail or skip, with a reason)   [PROSE_STATE_EXPECT]
  --decision K=V      override a pinned decision, e.g. attachmentThresholdBytes=100000, skip-rule=before-render (repeatable)
  --timeout MS        per-step timeout in milliseconds (default 30000)
  --deadline SECONDS  the whole run's time limit: past it the run stops, reports what did not run, exits 3  [PROSE_STATE_DEADLINE]
  --seed N            seed of the crash area's kill points (default random, printed in the header)  [PROSE_STATE_SEED]
  --tz ZONE           the time zone backends run under (default: one of several non-UTC zones picked by the seed,
                      printed in the header)  [PROSE_STATE_TZ]
  --shard I/N         run the I-th of N deterministic shares of the cases (CI machines; join with \`report merge\`);
                      give every shard the same --seed
  --durations REPORT  with --shard: balance the shares by the case durations of an earlier JSON Lines report
  --rerun-failed REPORT  run only the cases that failed, errored or passed unexpectedly in a saved JSON Lines report,
                      on the backends they failed on (or on --backend), with its seed, zone and decisions
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
    const options = parseTestOptions(argv, io.env);
    const suite = loadCliSuite(options.suite ?? defaultSuiteDir(io.env), io);
    const rerun = options.rerunFailed ? rerunPlan(readReport(options.rerunFailed), suite) : undefined;
    // A rerun replays the report's decisions unless told others, so the same failure shows again.
    const decisions = resolveDecisions(rerun && !options.decisionGiven ? rerun.decisions : options.decisions);
    if (options.explain !== undefined)
      return explainCase(
        options.explain,
        options.backends,
        suite,
        decisions,
        io,
        options.timeout,
        parseEditionChoice(options.edition, '--edition'),
      );
    const plan = planTest(options, suite, rerun, availableParallelism());
    for (const note of plan.notes) io.stderr.write(note);
    if (plan.kind === 'nothing') {
      io.stdout.write(plan.message);
      return EXIT.ok;
    }
    return runPlan(plan, suite, decisions, io);
  },
};
