import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { BenchReport } from '../../src/bench/bench-report.ts';
import { renderTable, unfit } from '../../scripts/gen-bench-doc.ts';

const load = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as BenchReport;
// The run docs/bench.md's table names (whichever the lead saved last).
const RUN = /<!-- bench-table: (\S+) /.exec(readFileSync('docs/bench.md', 'utf8'))![1]!;

test("the table is one run's: ours, forced, the parallel limit, the candidate and the peers over that run's limit", () => {
  const r = load(RUN);
  const out = renderTable(r, RUN);
  const small = r.workloads.find((w) => w.name === 'small')!;
  const row = out.split('\n').find((l) => l.startsWith(`| ${small.description} |`))!;
  const cells = row.split(' | ');
  const auto = small.fingerprint.auto!;
  assert.is(cells[2], `**${small.ratios.limit!.toFixed(2)}x** (readers in ${auto.parallel}/${auto.calls})`);
  assert.ok(cells[3]!.startsWith(`${small.parallel!.ratios['allCores.limit'].toFixed(2)}x`));
  assert.is(cells[4], `${(small.parallel!.limit.ms / small.limitMs).toFixed(2)}x`);
  assert.is(cells[5], `${small.candidates!.py!.verdict === 'ok' && small.candidates!.py!.ratios.limit.toFixed(2)}x`);
  assert.ok(out.includes(RUN) && out.includes(String(r.environment.loadAverageStart)));
});

test('a run without a candidate or without the parallel limit cannot make the table', () => {
  const r = load(RUN);
  assert.is(unfit(r), undefined);
  const noCandidate = { ...r, workloads: r.workloads.map((w) => ({ ...w, candidates: undefined })) };
  assert.match(unfit(noCandidate)!, 'candidate');
  const noParallel = { ...r, workloads: r.workloads.map((w) => ({ ...w, parallel: undefined })) };
  assert.match(unfit(noParallel)!, 'parallel limit');
  assert.throws(() => renderTable(noCandidate, RUN), /cannot make the table/);
});

test.run();
