import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli, runCliJson } from './cli.ts';

// ONE small real run of `bench --scale` (sizes 20, 60) on the in-context backend, the reference stdio plugin and a
// plugin that dies at its handshake; the github-benchmark and bencher formats are then printed from it through
// --results. No assertion looks at a time or an exponent's value: what was measured, where, and the exit code.
const dir = mkdtempSync(join(tmpdir(), 'bench-scale-spec-'));
const saved = join(dir, 'scale.json');
const OPS = ['bind', 'resolve', 'recordEvent', 'allocateAnon', 'appendSegment', 'commitWorldModel', 'listReceipts'];
let run: ReturnType<typeof runCliJson>['run'];
let report: Record<string, any> = {};

test.before(() => {
  const args = ['bench', '--scale', '--scale-sizes', '20,60', '--quick', '--format', 'json'];
  const backends = [
    'in-context',
    `exec:"${process.execPath}" conformance/plugins/reference/index.js`,
    `exec:API_TOKEN=hunter2 "${process.execPath}" -e "process.exit(3)"`,
  ];
  ({ run, report } = runCliJson([...args, ...backends.flatMap((b) => ['--backend', b])], {
    env: { ...process.env, PROSE_STATE_BENCH_TMP: dir },
  }));
  writeFileSync(saved, run.stdout);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test('every operation of each backend is timed at each size, with its growth and exponent', () => {
  assert.ok(report.scale, `no report: exit ${run.code}\n${run.stderr.slice(-2000)}`);
  assert.equal(report.scale.sizes, [20, 60]);
  for (const name of ['in-context', 'exec:reference']) {
    const b = report.scale.backends.find((x: any) => x.name === name);
    assert.ok(b, `${name} missing`);
    assert.equal(
      b.points.map((p: any) => p.size),
      [20, 60],
      name,
    );
    for (const op of [...OPS, 'resume']) {
      for (const p of b.points) assert.ok(p.ops[op].ms > 0 && p.ops[op].samples > 0, `${name} ${op} at ${p.size}`);
      assert.ok(Number.isFinite(b.exponents[op]), `${name} exponent of ${op}`);
      assert.is(report.ratios[`scale.${name}.${op}.growth`], b.growth[op]);
    }
    for (const p of b.points) assert.ok(Number.isFinite(p.heldMiB) && p.heldMiB >= 0, `${name} held at ${p.size}`);
  }
});

test('a --scale run measures nothing else, and adds no filesystem backend beside a plugin', () => {
  assert.equal(report.workloads, []);
  assert.equal(report.backends, []);
  for (const section of ['receipts', 'memory', 'startup', 'sqlitePeers'])
    assert.match(report[section].skipped, '--scale', section);
  assert.not.ok(report.scale.backends.some((b: any) => b.name === 'filesystem'));
});

test('a plugin that fails is reported with its error and its secret masked, and the run exits 1', () => {
  const dead = report.scale.backends.find((b: any) => b.failed);
  assert.ok(dead, 'the dying plugin is not reported as failed');
  assert.match(dead.skipped, 'exited with code 3');
  assert.not.match(JSON.stringify(report), 'hunter2');
  assert.is(run.code, 1);
  assert.match(run.stderr, /bench: backend exec:.* failed to grow/);
});

test('github-benchmark and bencher carry each growth ratio, each time per size and each exponent', () => {
  const gh = JSON.parse(runCli(['bench', '--results', saved, '--format', 'github-benchmark']).stdout);
  const byName = new Map(gh.map((e: any) => [e.name, e]));
  assert.is((byName.get('scale.in-context.resolve.growth') as any)?.unit, 'x');
  assert.is((byName.get('scale.in-context.resolve.at60 ms') as any)?.unit, 'ms');
  assert.is((byName.get('scale.in-context.resolve exponent') as any)?.unit, 'exponent');
  const bencher = JSON.parse(runCli(['bench', '--results', saved, '--format', 'bencher']).stdout);
  assert.ok(bencher['scale.exec:reference.bind.growth'].ratio.value > 0);
  assert.ok(bencher['scale.exec:reference.bind.at20'].latency.value > 0);
  assert.ok(Number.isFinite(bencher['scale.exec:reference.bind']['growth-exponent'].value));
});

test('the text report has a table per backend and names the failed one', () => {
  const text = runCli(['bench', '--results', saved]).stdout;
  assert.match(text, /\| operation\s+\| at 20 \| at 60 \| growth \| exponent \|/);
  assert.match(text, /exec:API_TOKEN=\*\*\* .*FAILED/);
});

test('--scale-sizes must be ascending, and belongs to --scale', () => {
  assert.is(runCli(['bench', '--scale', '--scale-sizes', '60,20']).code, 2);
  assert.is(runCli(['bench', '--scale-sizes', '20,60']).code, 2);
});

test('--scale-budget takes seconds > 0 and belongs to --scale; a backend stops growing when it is spent', () => {
  assert.is(runCli(['bench', '--scale', '--scale-budget', '0']).code, 2);
  assert.is(runCli(['bench', '--scale-budget', '10']).code, 2);
  const args = ['bench', '--scale', '--scale-sizes', '20,60', '--scale-budget', '0.000001', '--format', 'json'];
  const { report: tiny } = runCliJson([...args, '--backend', 'in-context'], {
    env: { ...process.env, PROSE_STATE_BENCH_TMP: dir },
  });
  assert.is(tiny.scale.budgetMs, 0.001);
  assert.equal(tiny.scale.backends[0].unreached.sizes, [20, 60]);
});

test('--scale-edition names an edition and belongs to --scale; each backend is grown in it and named after it', () => {
  assert.is(runCli(['bench', '--scale', '--scale-edition', 'v9']).code, 2);
  assert.is(runCli(['bench', '--scale-edition', 'current']).code, 2);
  const args = ['bench', '--scale', '--scale-sizes', '20,60', '--scale-edition', 'current', '--format', 'json'];
  const { report: current } = runCliJson([...args, '--backend', 'sqlite'], {
    env: { ...process.env, PROSE_STATE_BENCH_TMP: dir },
  });
  assert.is(current.scale.backends[0].name, 'sqlite@current');
  assert.equal(
    current.scale.backends[0].points.map((p: { size: number }) => p.size),
    [20, 60],
  );
});

test.run();
