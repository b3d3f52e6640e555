import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli } from './cli.ts';

// ONE real run (bench --quick --format json) against a baseline no run can meet: it must print the full report
// and exit 1. The equal/regressed/mismatch comparisons then reuse that report through --results, so they are
// deterministic. No assertion looks at a time: only shapes, finiteness and exit codes.
const dir = mkdtempSync(join(tmpdir(), 'bench-spec-'));
const impossible = join(dir, 'impossible.json');
writeFileSync(
  impossible,
  JSON.stringify({
    schema: 'prose-state.bench',
    version: 1,
    profile: 'quick',
    ratios: { 'fingerprint.small.limit': 1e-9 },
  }),
);
const current = join(dir, 'current.json');
let run: ReturnType<typeof runCli>;
let report: Record<string, any> = {};

test.before(() => {
  run = runCli(['bench', '--quick', '--format', 'json', '--compare', impossible], {
    env: { ...process.env, PROSE_STATE_BENCH_TMP: dir },
  });
  try {
    report = JSON.parse(run.stdout);
    writeFileSync(current, run.stdout);
  } catch {
    // asserted by the first test, with the output
  }
});

function everyNumber(value: unknown, path: string, out: [string, number][]): void {
  if (typeof value === 'number') out.push([path, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => everyNumber(v, `${path}[${i}]`, out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) everyNumber(v, `${path}.${k}`, out);
}

test('a real run against an impossible baseline prints the report and exits 1', () => {
  assert.is(run.code, 1, `exit ${run.code}\n${run.stderr.slice(-2000)}`);
  assert.is(report.schema, 'prose-state.bench');
  assert.is(report.version, 1);
  assert.is(report.profile, 'quick');
  assert.ok(
    report.comparison.changes.some((c: any) => c.key === 'fingerprint.small.limit' && c.verdict === 'regressed'),
  );
  assert.match(run.stderr, /1 ratio\(s\) regressed/);
});

test('every number in the report is finite (comparison aside)', () => {
  const { comparison: _c, ...rest } = report;
  const nums: [string, number][] = [];
  everyNumber(rest, '$', nums);
  assert.ok(nums.length > 50, `only ${nums.length} numbers`);
  for (const [path, n] of nums) assert.ok(Number.isFinite(n), `${path} = ${n}`);
});

test('each workload has our figures, both halves of the limit, and a ratio per measured peer', () => {
  assert.equal(
    report.workloads.map((w: any) => w.name),
    ['small', 'medium', 'large'],
  );
  for (const w of report.workloads) {
    for (const k of ['fingerprint', 'walk', 'rawHash']) {
      for (const f of ['ms', 'meanMs', 'samples', 'filesPerSec', 'mbPerSec'])
        assert.ok(w[k][f] > 0, `${w.name}.${k}.${f}`);
    }
    assert.match(w.fingerprint.address, /^sha256:[0-9a-f]{64}$/);
    // Every call of ours is counted (warm-ups too), and how many of them `auto` put on reader threads.
    const auto = w.fingerprint.auto;
    assert.ok(auto.calls >= w.fingerprint.samples && auto.parallel >= 0 && auto.parallel <= auto.calls, w.name);
    assert.ok(w.limitMs > 0 && w.ratios.limit > 0);
    assert.ok(Object.keys(w.peers).length >= 4);
    for (const [name, p] of Object.entries<any>(w.peers)) {
      if ('skipped' in p) assert.type(p.skipped, 'string');
      else assert.ok(p.ms > 0 && w.ratios[name] > 0 && typeof p.command === 'string', `${w.name} peer ${name}`);
    }
  }
});

test('each workload has the parallel limit, our fingerprint on all cores and their ratios (issue 20)', () => {
  for (const w of report.workloads) {
    const p = w.parallel;
    assert.ok(p.limit.ms > 0 && p.limit.threads >= 1, `${w.name} parallel limit`);
    assert.ok(p.allCores.ms > 0 && p.allCores.capBytes > 0, `${w.name} all cores`);
    assert.ok(p.allCores.workerBatches <= p.allCores.batches, `${w.name} batches`);
    for (const k of ['ours.parallelLimit', 'allCores.limit', 'allCores.parallelLimit'])
      assert.is(report.ratios[`fingerprint.${w.name}.${k}`], p.ratios[k], `${w.name} ${k}`);
    assert.ok(
      report.targets.some((t: any) => t.id === `fingerprint-${w.name}-all-cores`),
      w.name,
    );
  }
  // The parallel reader's peak memory is probed too (its read-ahead ring is what it adds).
  assert.ok(report.memory.trees.some((t: any) => t.tree === 'small.allCores'));
});

test('receipts, backends, memory, startup and environment are figures or skipped with a reason', () => {
  // The vectors are in the checkout (vectors/reactor): from it the receipt figures are never skipped, and paths inside
  // it are saved relative to it. The single binary (PROSE_STATE_CLI=dist/prose-state) carries none and says so.
  const binaryCli = !/\.(m?js|m?ts)$/.test(process.env.PROSE_STATE_CLI ?? '.js');
  if (binaryCli) assert.match(report.receipts.skipped ?? '', '--vectors');
  else {
    assert.ok(
      report.receipts.receipts > 0 && report.receipts.ratios.hash > 0 && report.receipts.ratios.chain > 0,
      JSON.stringify(report.receipts),
    );
    assert.is(report.receipts.source, join('vectors', 'reactor'));
    if (!('skipped' in report.startup)) assert.is(report.startup.binary, join('dist', 'prose-state'));
  }
  const fs = report.backends.find((b: any) => b.name === 'filesystem');
  assert.ok(
    fs && fs.write.opsPerSec > 0 && fs.read.opsPerSec > 0 && fs.ratios.write > 0 && fs.ratios.read > 0,
    JSON.stringify(fs),
  );
  for (const b of report.backends) assert.ok('skipped' in b || (b.ratios.write > 0 && b.ratios.read > 0), b.name);
  assert.equal(report.memory.trees[0].tree, 'empty');
  assert.ok(report.memory.trees.length >= 5);
  assert.type(report.memory.bounded, 'boolean');
  assert.ok('skipped' in report.startup || report.startup.ratio > 0);
  for (const k of ['cpu', 'cores', 'shaNi', 'node', 'openssl', 'tar', 'git']) assert.ok(k in report.environment, k);
  assert.ok(report.targets.length >= 6);
  for (const t of report.targets) assert.ok(t.met === null || typeof t.met === 'boolean', t.id);
});

test('the flat ratio map holds every ratio of the sections', () => {
  const r = report.ratios;
  for (const w of report.workloads) {
    assert.is(r[`fingerprint.${w.name}.limit`], w.ratios.limit);
    for (const p of Object.keys(w.ratios).filter((k) => k !== 'limit'))
      assert.is(r[`fingerprint.${w.name}.peer.${p}`], w.ratios[p]);
  }
  assert.ok(r['backend.filesystem.write'] > 0 && r['backend.filesystem.read'] > 0);
  for (const [k, v] of Object.entries<number>(r)) assert.ok(Number.isFinite(v) && v > 0, k);
});

test('--compare against an equal baseline exits 0', () => {
  const r = runCli(['bench', '--results', current, '--compare', current]);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /no ratio regressed/);
});

test('--compare exits 1 naming the ratio that regressed beyond the tolerance', () => {
  const base = JSON.parse(readFileSync(current, 'utf8'));
  base.ratios['fingerprint.large.limit'] /= 1.5;
  const regressed = join(dir, 'regressed.json');
  writeFileSync(regressed, JSON.stringify(base));
  const r = runCli(['bench', '--results', current, '--compare', regressed, '--tolerance', '0.15']);
  assert.is(r.code, 1, r.stderr);
  assert.match(r.stdout, /fingerprint\.large\.limit .*regressed/);
  // ...and names it once more with its ratio before and after.
  const before = base.ratios['fingerprint.large.limit'].toFixed(2);
  const after = JSON.parse(readFileSync(current, 'utf8')).ratios['fingerprint.large.limit'].toFixed(2);
  assert.ok(r.stdout.includes(`regressed: fingerprint.large.limit ${before}x -> ${after}x (+50.0%)`), r.stdout);
  // The same growth within a larger tolerance passes.
  assert.is(runCli(['bench', '--results', current, '--compare', regressed, '--tolerance', '0.6']).code, 0);
});

test('a baseline of the other profile is a usage error, not a comparison', () => {
  const base = JSON.parse(readFileSync(current, 'utf8'));
  base.profile = 'full';
  const other = join(dir, 'full.json');
  writeFileSync(other, JSON.stringify(base));
  const r = runCli(['bench', '--results', current, '--compare', other]);
  assert.is(r.code, 2, r.stderr);
  assert.match(r.stderr, /not comparable/);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
