import { availableParallelism } from 'node:os';
import { filesystemFactory } from '../../backends/filesystem/index.ts';
import { sqliteFactory } from '../../backends/sqlite/index.ts';
import { resolveDecisions, type Decisions } from '../../core/decisions.ts';
import { ProseError } from '../../core/errors.ts';
import { DEFAULT_EDITION } from '../../core/editions.ts';
import type { Suite } from '../../conformance/case-types.ts';
import { runSuite } from '../../conformance/run-suite.ts';
import { editionReferences } from '../../selftest/edition-references.ts';
import { judgeInLanes, type LaneJob } from '../../selftest/mutant-lanes.ts';
import type { Mutant } from '../../selftest/mutant.ts';
import { MUTANTS } from '../../selftest/mutants/index.ts';
import { judgeMutant, runSelftest, type MutantVerdict, type SelftestResult } from '../../selftest/run-selftest.ts';
import { parseOptions } from '../args.ts';
import type { CliIo, Command } from '../io.ts';
import { loadCliSuite } from '../suite-cache-for.ts';
import { defaultSuiteDir } from '../suite-dir.ts';

export const selftestCommand: Command = {
  help: `Usage: prose-state selftest [--mutant NAME]... [--area AREA]... [--suite DIR] [--jobs N] [--format json] [--list]

Each mutant is the filesystem backend (a few: sqlite, or postgres on pg-mem) with one real bug a backend author
could write (an off-by-one in segment numbering, >= instead of > at the attachment threshold, root searched before
the local frame, ...). The suite must kill every one: a mutant is killed when a case that passes on the unmutated
backend fails on it. A survivor is a case the suite is missing. Exit 1 when any mutant survives. Each mutant is
judged in one edition (most in v0; a few in the current edition, against the results of the backend they are a
mutant of in that edition, whose own control must survive first), and its verdict line names it. A few are judged
under a reading besides the default decisions (skip-rule before-render, semantic-diff render-supplied), against the
filesystem backend's results under that reading.

Options:
  --mutant NAME   only this mutant (repeatable)
  --area AREA     only the cases of this area (repeatable): a quicker, partial check
  --suite DIR     the suite directory (default: the built-in suite)
  --jobs N        judge N mutants at once, each in a child process (default: this machine's cores); the reference
                  and control runs take N cases at once. 1 judges them one after another in this process. The
                  verdicts are the same and told in the same order whatever N.
  --format json   one JSON object with every verdict
  --list          list the mutants and their bugs, run nothing`,
  async run(argv, io) {
    const { values } = parseOptions(
      argv,
      {
        mutant: { type: 'string', multiple: true },
        area: { type: 'string', multiple: true },
        suite: { type: 'string', env: 'PROSE_STATE_SUITE_DIR' },
        jobs: { type: 'string', env: 'PROSE_STATE_JOBS' },
        format: { type: 'string' },
        list: { type: 'boolean' },
        lane: { type: 'boolean' },
      },
      io.env,
    );
    const chosen = chooseMutants((values.mutant as string[] | undefined) ?? []);
    if (values.list) {
      for (const m of chosen) io.stdout.write(`${m.name.padEnd(30)} ${(m.edition ?? 'v0').padEnd(8)}${m.bug}\n`);
      return 0;
    }
    const jobs = values.jobs === undefined ? availableParallelism() : Number(values.jobs);
    if (!(Number.isSafeInteger(jobs) && jobs > 0))
      throw new ProseError('E_USAGE', '--jobs takes a whole number above 0');
    const suiteDir = (values.suite as string | undefined) ?? defaultSuiteDir(io.env);
    const areas = (values.area as string[] | undefined) ?? [];
    const suite = chosenSuite(loadCliSuite(suiteDir, io), areas);
    const decisions = resolveDecisions();
    if (values.lane) return runLane(suite, decisions, io);
    // A lane is this command in a child process, on the same suite and areas.
    const laneArgv = io.self && [
      ...io.self,
      'selftest',
      '--lane',
      '--suite',
      suiteDir,
      ...areas.flatMap((a) => ['--area', a]),
    ];
    const json = values.format === 'json';
    const tell = (v: MutantVerdict) => void (json || io.stdout.write(verdictLine(v)));
    return report(await judgeAll(suite, chosen, decisions, io, { jobs, laneArgv, tell }), json, io);
  },
};

function chooseMutants(names: string[]): readonly Mutant[] {
  const unknown = names.filter((n) => !MUTANTS.some((m) => m.name === n));
  if (unknown.length)
    throw new ProseError('E_USAGE', `unknown mutant ${unknown.map((n) => `"${n}"`).join(', ')}`, {
      hint: 'prose-state selftest --list',
    });
  return names.length ? MUTANTS.filter((m) => names.includes(m.name)) : MUTANTS;
}

function chosenSuite(full: Suite, areas: string[]): Suite {
  const suite = areas.length ? { ...full, cases: full.cases.filter((c) => areas.includes(c.area)) } : full;
  if (suite.cases.length === 0) throw new ProseError('E_USAGE', `no case in area ${areas.join(', ')}`);
  return suite;
}

/** The reference run, the control, then the mutants: in lanes (child processes) when there is more than one job. */
async function judgeAll(
  suite: Suite,
  chosen: readonly Mutant[],
  decisions: Decisions,
  io: CliIo,
  { jobs, laneArgv, tell }: { jobs: number; laneArgv: string[] | undefined; tell: (v: MutantVerdict) => void },
): Promise<SelftestResult> {
  // Mutants of the sqlite backend are judged against the unmutated sqlite backend, run only when one judged in v0 is
  // chosen (one judged in another edition has its reference run below).
  const sqliteV0 = chosen.some((m) => m.reference === 'sqlite' && (m.edition ?? DEFAULT_EDITION) === DEFAULT_EDITION);
  const references = [
    { ...filesystemFactory, spec: 'filesystem' },
    ...(sqliteV0 ? [{ ...sqliteFactory, spec: 'sqlite' }] : []),
  ];
  const silent = { header() {}, result() {}, footer() {} };
  const reference = await runSuite({
    suite,
    factories: references,
    decisions,
    filter: { areas: [], ids: [] },
    listener: silent,
    workerCommand: io.self,
    ...(jobs > 1 ? { jobs, caseWorkers: true } : {}),
  });
  // Another edition's reference, on its mutants' areas, in this process: a case worker gets the backend string only.
  for (const r of editionReferences(suite, chosen)) {
    const filter = { areas: [], ids: [] };
    reference.push(
      ...(await runSuite({
        suite: r.suite,
        factories: [r.factory],
        decisions,
        filter,
        listener: silent,
        jobs,
        workerCommand: io.self,
      })),
    );
  }
  const lanes = jobs > 1 && laneArgv && chosen.length > 1 ? laneArgv : undefined;
  return runSelftest(suite, chosen, decisions, reference, tell, {
    workerCommand: io.self,
    jobs,
    ...(lanes ? { judge: (ms, good, onVerdict) => judgeInLanes(ms, good, jobs, lanes, onVerdict) } : {}),
  });
}

function verdictLine(v: MutantVerdict): string {
  const name = `${v.mutant.padEnd(30)} ${`[${v.edition}]`.padEnd(10)}`;
  const under = v.pinned
    ? ` (under ${Object.entries(v.pinned)
        .map(([k, x]) => `${k}=${x}`)
        .join(', ')})`
    : '';
  if (!v.killedBy.length) return `  SURVIVED ${name}${v.bug}${under}\n`;
  const more = v.killedBy.length > 3 ? ` and ${v.killedBy.length - 3} more` : '';
  return `  killed   ${name}by ${v.killedBy.slice(0, 3).join(', ')}${more}${under}\n`;
}

/**
 * A lane (`selftest --lane`, started by judgeInLanes with an IPC channel): judges the mutants it is sent, one at a
 * time, against the good cases the parent's reference run found, and answers each with its verdict. Exits when the
 * channel closes.
 */
async function runLane(suite: Suite, decisions: Decisions, io: CliIo): Promise<number> {
  const send = process.send?.bind(process);
  if (!send) throw new ProseError('E_USAGE', 'selftest --lane is started by selftest --jobs, with an IPC channel');
  let chain = Promise.resolve();
  const one = async ({ mutant, good }: LaneJob) => {
    const m = MUTANTS.find((x) => x.name === mutant)!;
    const sets = Object.fromEntries(Object.entries(good).map(([backend, ids]) => [backend, new Set(ids)]));
    send(await judgeMutant(m, suite, sets, decisions, io.self));
  };
  await new Promise<void>((resolve) => {
    process.on('message', (job: LaneJob) => {
      chain = chain.then(() => one(job));
    });
    process.on('disconnect', () => void chain.then(resolve));
  });
  return 0;
}

function report(result: SelftestResult, json: boolean, io: CliIo): number {
  if (result.control.killedBy.length > 0) {
    const saw = result.control.evidence ? `  it saw: ${result.control.evidence}\n` : '';
    io.stderr.write(
      `prose-state selftest: the control mutant (no bug) failed ${result.control.killedBy.join(', ')} ` +
        `in the ${result.control.edition} edition: ` +
        `mutants are not built like the reference backend, so no kill would mean anything\n${saw}`,
    );
    return 3;
  }
  if (json) {
    io.stdout.write(JSON.stringify(result, null, 2) + '\n');
  } else {
    const survivors = result.verdicts.filter((v) => v.killedBy.length === 0);
    if (result.unreliable.length)
      io.stdout.write(`\nleft out (not passing on the reference backend): ${result.unreliable.join(', ')}\n`);
    const share = ((100 * result.killed) / result.total).toFixed(1);
    const named = survivors.length ? `; survivors: ${survivors.map((s) => s.mutant).join(', ')}` : '';
    io.stdout.write(`\nselftest: ${result.killed} of ${result.total} mutants killed (${share}%)${named}\n`);
  }
  return result.killed === result.total ? 0 : 1;
}
