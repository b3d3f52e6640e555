import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REPO, runCli } from './cli.ts';

// ONE quick run of the fingerprint section with every kind of candidate: our own CLI as a command (right by
// construction), our fingerprint as a module, a wrong address, a hang, a crash and garbage. No assertion looks at
// a time: verdicts, what was timed, exit codes and the report's shape only.
const dir = mkdtempSync(join(tmpdir(), 'bench-candidates-spec-'));
const ZEROS = `sha256:${'0'.repeat(64)}`;
// The single binary cannot import a .ts module; there the module candidate is left out (and said so below).
const binaryCli = !/\.(m?js|m?ts)$/.test(process.env.PROSE_STATE_CLI ?? '.js');
const args = [
  'bench',
  '--quick',
  '--only',
  'fingerprint',
  '--format',
  'json',
  // Long enough for our CLI's start on a loaded machine; only the small workload pays it (the hang below).
  '--candidate-timeout',
  '10000',
  '--candidate',
  `cli="${process.execPath}" "${REPO}bin/prose-state.js" fingerprint {}`,
  ...(binaryCli ? [] : ['--candidate', 'mod=module:spec/bench/fixtures/our-fingerprint-module.ts']),
  '--candidate',
  `wrong=echo ${ZEROS}`,
  '--candidate',
  // Hangs on the small workload in a child of the shell (the whole group must be killed), prints nothing elsewhere.
  'hang=case "$1" in */small) sleep 120 | cat ;; esac',
  '--candidate',
  'crash=echo boom on "$1" >&2; exit 3',
  '--candidate',
  'garbage=echo hello',
];
let run: ReturnType<typeof runCli>;
let report: Record<string, any> = {};

test.before(() => {
  run = runCli(args, { env: { ...process.env, PROSE_STATE_BENCH_TMP: dir } });
  try {
    report = JSON.parse(run.stdout);
  } catch {
    // asserted by the first test, with the output
  }
});

test('a failing candidate makes the run exit 1, and the whole report is still printed', () => {
  assert.is(run.code, 1, `exit ${run.code}\n${run.stderr.slice(-2000)}`);
  assert.equal(
    report.workloads.map((w: any) => w.name),
    ['small', 'medium', 'large'],
  );
  for (const section of ['receipts', 'memory', 'startup', 'sqlitePeers'])
    assert.match(report[section].skipped, '--only fingerprint', section);
  assert.equal(report.backends, []);
  // The JSON goes to stdout; each failure is also named on stderr, where a CI log shows it.
  assert.match(run.stderr, /bench: candidate wrong wrong on small: printed sha256:0{64}/);
  assert.match(run.stderr, /bench: candidate hang timeout on small/);
});

test('a candidate printing our address is timed, with its ratios to the limit and to ours', () => {
  const names = binaryCli ? ['cli'] : ['cli', 'mod'];
  for (const w of report.workloads)
    for (const name of names) {
      const c = w.candidates[name];
      assert.is(c.verdict, 'ok', `${w.name} ${name}: ${JSON.stringify(c)}`);
      assert.is(c.address, w.fingerprint.address);
      assert.is(c.kind, name === 'mod' ? 'module' : 'command');
      assert.ok(c.timing.ms > 0 && c.timing.samples > 0);
      assert.ok(Math.abs(c.ratios.limit - c.timing.ms / w.limitMs) < 1e-9);
      assert.ok(Math.abs(c.ratios.ours - c.timing.ms / w.fingerprint.ms) < 1e-9);
      assert.is(report.ratios[`fingerprint.${w.name}.candidate.${name}.limit`], c.ratios.limit);
      assert.is(report.ratios[`fingerprint.${w.name}.candidate.${name}.ours`], c.ratios.ours);
    }
  if (!binaryCli)
    assert.is(report.workloads[0].candidates.mod.source, 'module:spec/bench/fixtures/our-fingerprint-module.ts');
  assert.match(report.workloads[0].candidates.cli.source, /fingerprint DIR$/);
});

test('wrong, hung, crashed and garbage candidates are failures with a reason, never timed', () => {
  for (const w of report.workloads) {
    const c = w.candidates;
    assert.is(c.wrong.verdict, 'wrong');
    assert.ok(c.wrong.detail.includes(ZEROS) && c.wrong.detail.includes(w.fingerprint.address), c.wrong.detail);
    if (w.name === 'small') {
      assert.is(c.hang.verdict, 'timeout');
      assert.match(c.hang.detail, '10000 ms');
    } else {
      assert.is(c.hang.verdict, 'failed');
      assert.match(c.hang.detail, 'no OPWM1 address');
    }
    assert.is(c.crash.verdict, 'failed');
    assert.match(c.crash.detail, 'exit 3');
    assert.match(c.crash.stderr, `boom on`);
    assert.is(c.garbage.verdict, 'failed');
    assert.match(c.garbage.detail, 'no OPWM1 address');
    for (const name of ['wrong', 'hang', 'crash', 'garbage']) {
      assert.not.ok('timing' in c[name], `${name} was timed`);
      assert.not.ok(`fingerprint.${w.name}.candidate.${name}.ours` in report.ratios, name);
    }
  }
});

test('the text report shows each candidate in the workload table and each failure with its reason', () => {
  const r = runCli(['bench', '--results', writeReport()]);
  assert.is(r.code, 1, r.stderr);
  const header = r.stdout.split('\n').find((l) => l.startsWith('| workload'))!;
  for (const name of ['cli', 'wrong', 'hang', 'crash', 'garbage'])
    assert.ok(header.includes(`candidate ${name}`), name);
  assert.match(r.stdout, /candidate wrong WRONG on small \(not timed\)/);
  assert.match(r.stdout, /candidate hang TIMEOUT on small/);
  assert.match(r.stdout, /stderr: boom on/);
  assert.match(r.stdout, /x limit, [0-9.]+x ours/);
});

test('bad --candidate and --only values are usage errors', () => {
  for (const bad of [
    ['--candidate', 'no-command'],
    ['--candidate', '=echo x'],
    ['--candidate', 'a/b=echo x'],
    ['--candidate', 'm=module:spec/bench/fixtures/missing.ts'],
    ['--candidate', 'x=echo a', '--candidate', 'x=echo b'],
    ['--candidate-timeout', '0'],
    ['--only', 'receipts'],
  ]) {
    const r = runCli(['bench', '--quick', ...bad]);
    assert.is(r.code, 2, `${bad.join(' ')}: exit ${r.code}\n${r.stderr}`);
  }
});

// The CI formats reuse the same run (--results): a report with peers, candidates and skipped sections.
test('--format github-benchmark is a customSmallerIsBetter array of every ratio (x) and median time (ms)', () => {
  const r = runCli(['bench', '--results', writeReport(), '--format', 'github-benchmark']);
  assert.is(r.code, 1, r.stderr); // the failing candidates still fail the run
  const entries: any[] = JSON.parse(r.stdout);
  assert.ok(Array.isArray(entries) && entries.length > 0);
  for (const e of entries) {
    assert.equal(
      Object.keys(e).sort(),
      e.extra === undefined ? ['name', 'unit', 'value'] : ['extra', 'name', 'unit', 'value'],
    );
    assert.type(e.name, 'string');
    assert.ok(e.unit === 'x' || e.unit === 'ms', e.unit);
    assert.ok(Number.isFinite(e.value) && e.value > 0, e.name);
  }
  assert.is(new Set(entries.map((e) => e.name)).size, entries.length, 'names are unique');
  const byName = new Map(entries.map((e) => [e.name, e]));
  for (const [key, value] of Object.entries<number>(report.ratios)) {
    assert.is(byName.get(key)?.value, value, key);
    assert.is(byName.get(key)?.unit, 'x');
  }
  const small = report.workloads[0];
  assert.is(byName.get('fingerprint.small.ours ms').value, small.fingerprint.ms);
  assert.is(byName.get('fingerprint.small.ours ms').unit, 'ms');
  assert.is(byName.get('fingerprint.small.candidate.cli ms').value, small.candidates.cli.timing.ms);
  assert.not.ok(byName.has('fingerprint.small.candidate.wrong ms'), 'a failed candidate has no figure');
});

test('--format bencher is Bencher Metric Format: ratios under "ratio", times under "latency" in ns', () => {
  const r = runCli(['bench', '--results', writeReport(), '--format', 'bencher']);
  assert.is(r.code, 1, r.stderr);
  const bmf = JSON.parse(r.stdout);
  assert.ok(bmf && typeof bmf === 'object' && !Array.isArray(bmf));
  for (const [bench, measures] of Object.entries<any>(bmf)) {
    assert.ok(Object.keys(measures).length > 0, bench);
    for (const [measure, metric] of Object.entries<any>(measures)) {
      assert.ok(['ratio', 'latency'].includes(measure), `${bench}: ${measure}`);
      assert.equal(Object.keys(metric), ['value'], `${bench}.${measure}`);
      assert.ok(Number.isFinite(metric.value) && metric.value > 0, `${bench}.${measure}`);
    }
  }
  for (const [key, value] of Object.entries<number>(report.ratios)) assert.is(bmf[key].ratio.value, value, key);
  const small = report.workloads[0];
  assert.is(bmf['fingerprint.small.ours'].latency.value, small.fingerprint.ms * 1e6);
  assert.is(bmf['fingerprint.small.limit'].latency.value, small.limitMs * 1e6);
});

test('--compare with a CI format keeps stdout parseable and names each regressed ratio on stderr', () => {
  const base = JSON.parse(run.stdout);
  base.ratios['fingerprint.small.limit'] /= 2;
  const baseline = join(dir, 'baseline.json');
  writeFileSync(baseline, JSON.stringify(base));
  const r = runCli(['bench', '--results', writeReport(), '--format', 'github-benchmark', '--compare', baseline]);
  assert.is(r.code, 1, r.stderr);
  assert.ok(Array.isArray(JSON.parse(r.stdout)));
  const before = base.ratios['fingerprint.small.limit'].toFixed(2);
  const after = report.ratios['fingerprint.small.limit'].toFixed(2);
  assert.ok(r.stderr.includes(`regressed: fingerprint.small.limit ${before}x -> ${after}x (+100.0%)`), r.stderr);
});

function writeReport(): string {
  const path = join(dir, 'report.json');
  writeFileSync(path, run.stdout);
  return path;
}

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
