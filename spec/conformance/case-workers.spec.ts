import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.ts';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { CaseWorkers } from '../../src/conformance/case-workers.ts';
import { loadSuite } from '../../src/conformance/load-suite.ts';
import { runCase } from '../../src/conformance/run-case.ts';
import { assertSameReportDirs, withoutDurations } from '../helpers/same-reports.ts';
import { captureIo, PASS_FAIL_SKIP_CASES, tempSuite } from '../helpers/temp-suite.ts';

// test --jobs N above 1 runs the cases that compute in the test process in case workers (child processes of the CLI),
// beside the crash and concurrency cases: their outcomes, and so every report, must be the in-process ones.
const SELF = [process.execPath, fileURLToPath(new URL('../../bin/prose-state.js', import.meta.url))];

test('a case worker answers each case with the outcome runCase gives in this process (a failure with expected and seen too)', async () => {
  const suite = loadSuite(tempSuite({ 'a.yaml': PASS_FAIL_SKIP_CASES }));
  const root = mkdtempSync(join(tmpdir(), 'prose-case-workers-'));
  const pool = new CaseWorkers(SELF);
  try {
    const statuses: string[] = [];
    for (const [i, c] of suite.cases.entries()) {
      const job = { case: c, seed: 9, runSeed: 1, decisions: DEFAULT_DECISIONS, stepTimeoutMs: 30_000 };
      const there = await pool.run({ ...job, spec: 'filesystem', edition: 'v0', dir: join(root, `there-${i}`) });
      const here = await runCase(c, { ...job, factory: filesystemFactory, dir: join(root, `here-${i}`) });
      // Run ids are drawn afresh by each run of a case; everything else is the same.
      const runIds = (o: unknown) => JSON.stringify(o).replace(/\d{8}-\d{6}-[0-9a-f]{6}/g, 'RUN');
      assert.is(runIds(there), runIds(here), c.id);
      statuses.push(there.status);
    }
    assert.equal(statuses, ['passed', 'failed', 'skipped']);
  } finally {
    pool.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('a case worker that dies mid-case errors that case and names the exit', async () => {
  const pool = new CaseWorkers([process.execPath, '-e', 'process.exit(7)', '--']);
  const [c] = loadSuite(tempSuite({ 'a.yaml': PASS_FAIL_SKIP_CASES })).cases;
  const o = await pool.run({
    case: c!,
    spec: 'filesystem',
    edition: 'v0',
    dir: join(tmpdir(), 'never-made'),
    seed: 1,
    runSeed: 1,
    decisions: DEFAULT_DECISIONS,
    stepTimeoutMs: 30_000,
  });
  assert.is(o.status, 'errored');
  assert.match(o.status === 'errored' ? o.error.message : '', /the case worker exited \(7\) while it ran the case/);
  pool.close();
});

test('a case worker judges the case in the edition sent beside the backend string, not one parsed out of it', async () => {
  const suite = loadSuite(
    tempSuite({
      'e.yaml': `area: e
cases:
  - id: e/edition
    title: the edition sent beside the backend string reaches the case
    steps:
      - { op: bind, args: { run: "\${run}", name: e, kind: let, value: "\${edition}" } }
      - { op: resolve, args: { run: "\${run}", name: e }, expect: { value: current } }
  - id: e/v0-only
    title: a case of the v0 text
    editions: [v0]
    steps: [{ op: resolve, args: { name: x }, error: E_NOT_FOUND }]
`,
    }),
  );
  const root = mkdtempSync(join(tmpdir(), 'prose-case-workers-'));
  const pool = new CaseWorkers(SELF);
  try {
    const settings = { seed: 1, runSeed: 1, decisions: DEFAULT_DECISIONS, stepTimeoutMs: 30_000 };
    const [edition, v0Only] = suite.cases;
    const at = (edition_: 'v0' | 'current', c: typeof edition) =>
      pool.run({
        ...settings,
        case: c!,
        spec: 'filesystem',
        edition: edition_,
        dir: join(root, `${edition_}-${c!.id}`),
      });
    assert.is((await at('current', edition)).status, 'passed');
    assert.is((await at('v0', edition)).status, 'failed');
    const skipped = await at('current', v0Only);
    assert.equal(skipped, {
      status: 'skipped',
      reason: "checks the v0 edition's text; this run judges the current edition",
    });
  } finally {
    pool.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('test --jobs 3 with case workers writes every report as --jobs 1 does, apart from durations', async () => {
  const dirs = [mkdtempSync(join(tmpdir(), 'cw-jobs1-')), mkdtempSync(join(tmpdir(), 'cw-jobs3-'))];
  const run = async (jobs: number, dir: string) => {
    const c = captureIo();
    const code = await main(
      [
        'test',
        ...['--backend', 'filesystem', '--backend', 'sqlite', '--area', 'names', '--area', 'hostile-input'],
        ...['--seed', '5', '--reporter', 'json', '--jobs', String(jobs), '--report-dir', dir],
      ],
      // `self` lets the runner start this CLI as a process: the case workers (and the bundle they run).
      { ...c.io, self: SELF },
    );
    return { code, out: c.out() };
  };
  try {
    const one = await run(1, dirs[0]!);
    const three = await run(3, dirs[1]!);
    assert.is(three.code, one.code);
    assert.ok(one.out.split('\n').filter((l) => l.includes('"type":"case"')).length > 40);
    assert.is(withoutDurations(three.out), withoutDurations(one.out));
    assertSameReportDirs(dirs[1]!, dirs[0]!);
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
});

test.run();
