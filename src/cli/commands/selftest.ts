import { filesystemFactory } from '../../backends/filesystem/index.ts';
import { sqliteFactory } from '../../backends/sqlite/index.ts';
import { resolveDecisions } from '../../core/decisions.ts';
import { ProseError } from '../../core/errors.ts';
import { loadSuite } from '../../conformance/load-suite.ts';
import { runSuite } from '../../conformance/run-suite.ts';
import { MUTANTS } from '../../selftest/mutants/index.ts';
import { runSelftest } from '../../selftest/run-selftest.ts';
import { parseOptions } from '../args.ts';
import type { Command } from '../io.ts';
import { defaultSuiteDir } from '../suite-dir.ts';

export const selftestCommand: Command = {
  help: `Usage: prose-state selftest [--mutant NAME]... [--area AREA]... [--suite DIR] [--format json] [--list]

Each mutant is the filesystem backend (a few: the sqlite backend) with one real bug a backend author could write
(an off-by-one in segment numbering, >= instead of > at the attachment threshold, root searched before the local
frame, ...). The suite must kill every one: a mutant is killed when a case that passes on the unmutated backend
fails on it. A survivor is a case the suite is missing. Exit 1 when any mutant survives.

Options:
  --mutant NAME   only this mutant (repeatable)
  --area AREA     only the cases of this area (repeatable): a quicker, partial check
  --suite DIR     the suite directory (default: the built-in suite)
  --format json   one JSON object with every verdict
  --list          list the mutants and their bugs, run nothing`,
  async run(argv, io) {
    const { values } = parseOptions(
      argv,
      {
        mutant: { type: 'string', multiple: true },
        area: { type: 'string', multiple: true },
        suite: { type: 'string', env: 'PROSE_STATE_SUITE_DIR' },
        format: { type: 'string' },
        list: { type: 'boolean' },
      },
      io.env,
    );
    const names = (values.mutant as string[] | undefined) ?? [];
    const unknown = names.filter((n) => !MUTANTS.some((m) => m.name === n));
    if (unknown.length)
      throw new ProseError('E_USAGE', `unknown mutant ${unknown.map((n) => `"${n}"`).join(', ')}`, {
        hint: 'prose-state selftest --list',
      });
    const chosen = names.length ? MUTANTS.filter((m) => names.includes(m.name)) : MUTANTS;
    if (values.list) {
      for (const m of chosen) io.stdout.write(`${m.name.padEnd(30)} ${m.bug}\n`);
      return 0;
    }
    const json = values.format === 'json';
    const decisions = resolveDecisions();
    const full = loadSuite((values.suite as string | undefined) ?? defaultSuiteDir(io.env));
    const areas = (values.area as string[] | undefined) ?? [];
    const suite = areas.length ? { ...full, cases: full.cases.filter((c) => areas.includes(c.area)) } : full;
    if (suite.cases.length === 0) throw new ProseError('E_USAGE', `no case in area ${areas.join(', ')}`);
    // Mutants of the sqlite backend are judged against the unmutated sqlite backend, run only when one is chosen.
    const references = [
      { ...filesystemFactory, spec: 'filesystem' },
      ...(chosen.some((m) => m.reference === 'sqlite') ? [{ ...sqliteFactory, spec: 'sqlite' }] : []),
    ];
    const reference = await runSuite({
      suite,
      factories: references,
      decisions,
      filter: { areas: [], ids: [] },
      listener: { header() {}, result() {}, footer() {} },
      workerCommand: io.self,
    });
    const result = await runSelftest(
      suite,
      chosen,
      decisions,
      reference,
      (v) => {
        if (!json)
          io.stdout.write(
            v.killedBy.length
              ? `  killed   ${v.mutant.padEnd(30)} by ${v.killedBy.slice(0, 3).join(', ')}${v.killedBy.length > 3 ? ` and ${v.killedBy.length - 3} more` : ''}\n`
              : `  SURVIVED ${v.mutant.padEnd(30)} ${v.bug}\n`,
          );
      },
      io.self,
    );
    if (result.control.killedBy.length > 0) {
      io.stderr.write(
        `prose-state selftest: the control mutant (no bug) failed ${result.control.killedBy.join(', ')}: mutants are not built like the reference backend, so no kill would mean anything\n${result.control.evidence ? `  it saw: ${result.control.evidence}\n` : ''}`,
      );
      return 3;
    }
    if (json) {
      io.stdout.write(JSON.stringify(result, null, 2) + '\n');
    } else {
      const survivors = result.verdicts.filter((v) => v.killedBy.length === 0);
      if (result.unreliable.length)
        io.stdout.write(`\nleft out (not passing on the reference backend): ${result.unreliable.join(', ')}\n`);
      io.stdout.write(
        `\nselftest: ${result.killed} of ${result.total} mutants killed (${((100 * result.killed) / result.total).toFixed(1)}%)${survivors.length ? `; survivors: ${survivors.map((s) => s.mutant).join(', ')}` : ''}\n`,
      );
    }
    return result.killed === result.total ? 0 : 1;
  },
};
