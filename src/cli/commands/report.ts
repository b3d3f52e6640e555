import { writeFileSync } from 'node:fs';
import { ProseError } from '../../core/errors.ts';
import { caseSources } from '../../conformance/case-source.ts';
import { countOutcomes, exitCodeFor } from '../../conformance/outcome.ts';
import { exitCodeForClaims, worstExit } from '../../conformance/probes/capability-report.ts';
import { diffHtml, diffMarkdown, diffText } from '../../conformance/report-file/diff-format.ts';
import { diffReports } from '../../conformance/report-file/diff-reports.ts';
import { mergeReports, replayRuns } from '../../conformance/report-file/merge-reports.ts';
import { readReport } from '../../conformance/report-file/read-report.ts';
import { createReporters, REPORTERS } from '../../conformance/reporters/create-reporters.ts';
import { parseOptions } from '../args.ts';
import { EXIT, type CliIo, type Command } from '../io.ts';
import { createFileReports, teeListener } from '../report-files.ts';
import { loadCliSuite } from '../suite-cache-for.ts';
import { defaultSuiteDir } from '../suite-dir.ts';

const HELP = `Usage: prose-state report merge FILE... [--reporter NAME] [--report-dir DIR] [--suite DIR]
       prose-state report diff OLD NEW [--format text|md|html] [--output FILE]

merge   joins the JSON Lines reports of \`test --shard I/N\` (one per shard, any order) into the report one unsharded
        run would have written, in any format: cases in suite order, each backend's counts recounted. Refused (exit 2)
        when the shards differ in suite version, seed, decisions, backends or shard count, when a shard is missing
        or given twice, or when two shards hold the same case; a shard that was cut off (no footer) is an error
        (exit 3), never a hole in the merged report.
diff    compares two JSON Lines reports case by case (backend and id): newly failing, newly passing, newly skipped,
        and cases the new report no longer has. Exit 1 when something newly fails.

Options:
  --reporter NAME     merge: ${REPORTERS.join('|')} (default pretty)          [PROSE_STATE_REPORTER]
  --report-dir DIR    merge: also write every report format into DIR (report.jsonl, report.html, ...)
  --suite DIR         merge: the suite whose order and YAML the reports show (default: the built-in suite)  [PROSE_STATE_SUITE_DIR]
  --format FORMAT     diff: text (default), md or html
  --output FILE       diff: write there instead of standard output
  -h, --help          this text

Exit codes (merge): those of \`test\` for the merged cases: 0 all passed, 1 a failure, 3 an error.`;

export const reportCommand: Command = {
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseOptions(
      argv,
      {
        reporter: { type: 'string', env: 'PROSE_STATE_REPORTER' },
        'report-dir': { type: 'string' },
        suite: { type: 'string', env: 'PROSE_STATE_SUITE_DIR' },
        format: { type: 'string' },
        output: { type: 'string' },
      },
      io.env,
    );
    const [sub, ...files] = positionals;
    const str = (name: string) => values[name] as string | undefined;
    if (sub === 'merge')
      return merge(files, { reporter: str('reporter'), reportDir: str('report-dir'), suite: str('suite') }, io);
    if (sub === 'diff') return diff(files, { format: str('format'), output: str('output') }, io);
    throw new ProseError('E_USAGE', sub ? `unknown report subcommand "${sub}"` : 'report needs a subcommand', {
      hint: 'report merge FILE... or report diff OLD NEW',
    });
  },
};

/** `report merge`: the shards' runs joined in suite order, replayed into the reporter and the report files. */
function merge(files: string[], o: { reporter?: string; reportDir?: string; suite?: string }, io: CliIo): number {
  if (!files.length) throw new ProseError('E_USAGE', 'report merge needs the shard reports', { hint: 'see --help' });
  const reports = files.map(readReport);
  const suite = loadCliSuite(o.suite ?? defaultSuiteDir(io.env), io);
  const order = new Map(suite.cases.map((c, i) => [c.id, i]));
  const runs = mergeReports(reports, (id) => order.get(id) ?? suite.cases.length);
  // The suite's YAML is shown only when it is the version the reports ran.
  const same = runs.every((r) => r.header.suite.version === suite.version && r.header.suite.name === suite.name);
  const sources = same ? caseSources(suite) : undefined;
  const opts = sources ? { sources } : {};
  const reporter = createReporters(o.reporter ?? 'pretty', (s) => io.stdout.write(s), opts);
  const dir = o.reportDir ? createFileReports(o.reportDir, opts) : undefined;
  // Every shard left out the same backends (they judged the same editions): the first file's are the run's.
  const all = replayRuns(runs, dir ? teeListener(reporter, dir.reporter) : reporter, reports[0]!.notJudged);
  dir?.flush();
  const claims = runs.flatMap((r) => (r.capabilities ? [r.capabilities] : []));
  return worstExit(exitCodeFor(countOutcomes(all)), exitCodeForClaims(claims));
}

/** `report diff OLD NEW`: case by case, in the chosen format; exit 1 when something newly fails. */
function diff(files: string[], o: { format?: string; output?: string }, io: CliIo): number {
  if (files.length !== 2)
    throw new ProseError('E_USAGE', 'report diff takes two reports: OLD NEW', { hint: 'see --help' });
  const d = diffReports(readReport(files[0]!), readReport(files[1]!));
  const format = o.format ?? 'text';
  const render = { text: diffText, md: diffMarkdown, html: diffHtml }[format];
  if (!render) throw new ProseError('E_USAGE', `--format takes text, md or html, got ${JSON.stringify(format)}`);
  if (o.output) writeFileSync(o.output, render(d));
  else io.stdout.write(render(d));
  if (o.output) io.stdout.write(diffText(d));
  return d.newlyFailing.length ? EXIT.failed : EXIT.ok;
}
