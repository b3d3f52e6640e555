import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.ts';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { loadSuite } from '../../src/conformance/load-suite.ts';
import { QUICK, quickSuite } from '../../src/conformance/quick.ts';
import { runSuite } from '../../src/conformance/run-suite.ts';
import { assertSameReportDirs, withoutDurations } from '../helpers/same-reports.ts';
import { captureIo, PASS_FAIL_SKIP_CASES, tempSuite } from '../helpers/temp-suite.ts';
import { builtinSuite } from '../helpers/builtin-suite.ts';

// test --jobs: the report of a parallel run is the sequential run's, in the same order, apart from durations.
// The runs here are judged in v0 alone (--edition v0): the counts below are of one run per backend, and the filesystem
// backend also declares the current edition, which --edition all would judge as a second run.
const idleWorker = fileURLToPath(new URL('./fixtures/ready-then-idle-worker.js', import.meta.url));

async function runTest(jobs: number, reportDir: string, reporter = 'json') {
  const c = captureIo();
  const code = await main(
    [
      'test',
      ...['--backend', 'filesystem', '--backend', 'sqlite', '--edition', 'v0', '--area', 'names', '--area', 'run-ids'],
      ...['--seed', '5', '--reporter', reporter, '--jobs', String(jobs), '--report-dir', reportDir],
    ],
    c.io,
  );
  return { code, out: c.out(), err: c.err() };
}

test('--jobs 3 writes every report (JSON Lines, TAP, JUnit, Markdown, HTML) as --jobs 1 does, apart from durations', async () => {
  const dirs = [mkdtempSync(join(tmpdir(), 'jobs1-')), mkdtempSync(join(tmpdir(), 'jobs3-'))];
  try {
    const one = await runTest(1, dirs[0]!);
    const three = await runTest(3, dirs[1]!);
    assert.is(three.code, one.code);
    const lines = one.out.trim().split('\n');
    // Both backends, each with its header, capabilities, cases and footer: the comparison below is not empty.
    assert.is(lines.filter((l) => l.includes('"type":"header"')).length, 2);
    assert.ok(lines.filter((l) => l.includes('"type":"case"')).length > 20);
    assert.is(withoutDurations(three.out), withoutDurations(one.out));
    assertSameReportDirs(dirs[1]!, dirs[0]!);
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
});

test('the pretty report (matrix and capability claims) is the same with --jobs 1 and --jobs 4', async () => {
  const dirs = [mkdtempSync(join(tmpdir(), 'jobs1-')), mkdtempSync(join(tmpdir(), 'jobs4-'))];
  try {
    const one = await runTest(1, dirs[0]!, 'pretty');
    const four = await runTest(4, dirs[1]!, 'pretty');
    assert.match(one.out, /Compliance matrix/);
    assert.is(withoutDurations(four.out), withoutDurations(one.out));
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
});

const CRASH_CASES = `area: k
cases:
${[1, 2, 3]
  .map(
    (i) => `  - id: k/c${i}
    title: crash ${i}
    requires: [durable, multi-process]
    steps:
      - crash: { workload: bindings, kills: 4, max-delay-ms: 1000 }
`,
  )
  .join('')}`;

test('a seed gives every crash case the same kill points whatever --jobs', async () => {
  const suite = loadSuite(tempSuite({ 'k.yaml': CRASH_CASES }));
  const killPoints = async (jobs: number) => {
    const seen: Record<string, number[]> = {};
    await runSuite({
      suite,
      factories: [{ ...filesystemFactory, spec: 'filesystem' }],
      decisions: DEFAULT_DECISIONS,
      filter: { areas: [], ids: [] },
      listener: { header() {}, result() {}, footer() {} },
      // A stand-in writer that says ready and acknowledges nothing: the kills and their seeded waits are the point.
      workerCommand: [process.execPath, idleWorker],
      seed: 42,
      jobs,
      progress: { kill: (key, _k, _of, ms) => void (seen[key] ??= []).push(ms), writesChecked: () => undefined },
    });
    return seen;
  };
  const one = await killPoints(1);
  const three = await killPoints(3);
  assert.equal(Object.keys(one).sort(), ['filesystem k/c1', 'filesystem k/c2', 'filesystem k/c3']);
  for (const points of Object.values(one)) assert.is(points.length, 4);
  assert.equal(three, one);
  // Each case has a seed of its own, derived from the run's: the cases do not share their kill points.
  assert.not.equal(one['filesystem k/c1'], one['filesystem k/c2']);
});

test('--bail stops at the first failure and the report says how many cases did not run', async () => {
  const dir = tempSuite({ 'a.yaml': PASS_FAIL_SKIP_CASES });
  const c = captureIo();
  const code = await main(
    [
      'test',
      '--backend',
      'filesystem',
      '--backend',
      'sqlite',
      '--edition',
      'v0',
      '--suite',
      dir,
      '--reporter',
      'json',
      '--bail',
    ],
    c.io,
  );
  assert.is(code, 1);
  const lines = c
    .out()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  // filesystem: a/passes, then a/fails; a/skips and all three sqlite cases never ran, and no sqlite header follows.
  assert.equal(
    lines.filter((l) => l.type === 'case').map((l) => `${l.id} ${l.status}`),
    ['a/passes passed', 'a/fails failed'],
  );
  assert.is(lines.filter((l) => l.type === 'header').length, 1);
  assert.equal(lines.at(-1).cutShort, { by: 'bail', notRun: 4 });
  const p = captureIo();
  await main(['test', '--backend', 'filesystem', '--edition', 'v0', '--suite', dir, '--bail', '--no-probe'], p.io);
  assert.match(p.out(), /cut short by --bail at the first failure: 1 cases did not run/);
});

test('--quick caps the worker steps and every header says the run is quick', async () => {
  const suite = quickSuite(builtinSuite());
  const steps = suite.cases.flatMap((c) => c.steps);
  const crash = steps.filter((s) => s.kind === 'crash');
  assert.ok(crash.length > 0);
  for (const s of crash) assert.ok(s.kind === 'crash' && s.kills <= QUICK.kills);
  for (const s of steps) if (s.kind === 'concurrent') assert.ok(s.writers <= QUICK.writers && s.each <= QUICK.each);
  const dir = tempSuite({ 'a.yaml': PASS_FAIL_SKIP_CASES });
  const j = captureIo();
  await main(['test', '--backend', 'filesystem', '--suite', dir, '--reporter', 'json', '--quick', '--no-probe'], j.io);
  assert.equal(JSON.parse(j.out().split('\n')[0]!).quick, QUICK);
  for (const reporter of ['pretty', 'tap', 'md', 'junit', 'html']) {
    const c = captureIo();
    await main(
      [
        'test',
        '--backend',
        'filesystem',
        '--suite',
        dir,
        '--reporter',
        reporter,
        '--quick',
        '--no-probe',
        '--seed',
        '7',
      ],
      c.io,
    );
    assert.match(c.out(), /QUICK run \(--quick\)/, reporter);
    // JUnit: the header's words as the backend's testsuite properties, the seed and the skipped probes too.
    if (reporter === 'junit') {
      assert.match(
        c.out(),
        /<property name="quick" value="QUICK run \(--quick\): crash and mixed-writers steps capped at 3 kills/,
      );
      assert.match(c.out(), /<property name="seed" value="7"\/>/);
      assert.match(c.out(), /<property name="capability-probes" value="skipped \(--no-probe\)"\/>/);
    }
    if (reporter === 'html')
      assert.match(c.out(), /<td>quick \(--quick\); capability probes skipped \(--no-probe\)<\/td>/);
  }
  // A full run says nothing of the kind, in any format.
  for (const reporter of ['pretty', 'junit', 'html']) {
    const full = captureIo();
    await main(['test', '--backend', 'filesystem', '--suite', dir, '--no-probe', '--reporter', reporter], full.io);
    assert.not.match(full.out(), /QUICK|quick \(--quick\)/, reporter);
  }
});

test('progress goes to stderr only when it is a terminal', async () => {
  const dir = tempSuite({ 'a.yaml': PASS_FAIL_SKIP_CASES });
  const piped = captureIo();
  await main(['test', '--backend', 'filesystem', '--suite', dir, '--no-probe'], piped.io);
  assert.is(piped.err(), '');
  const tty = captureIo();
  (tty.io.stderr as { isTTY?: boolean }).isTTY = true;
  await main(['test', '--backend', 'filesystem', '--edition', 'v0', '--suite', dir, '--no-probe'], tty.io);
  assert.match(tty.err(), /3\/3 cases/);
  // The line is cleared at the end, so the terminal is left as the report left it.
  assert.ok(tty.err().endsWith('\r\x1b[K'));
});

test('--jobs takes a whole number above 0', async () => {
  const dir = tempSuite({ 'a.yaml': PASS_FAIL_SKIP_CASES });
  for (const bad of ['0', 'two', '1.5']) {
    const c = captureIo();
    assert.is(await main(['test', '--backend', 'filesystem', '--suite', dir, '--jobs', bad], c.io), 2, bad);
    assert.match(c.err(), /--jobs takes a whole number above 0/);
  }
});

test.run();
