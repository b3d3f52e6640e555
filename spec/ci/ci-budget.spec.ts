import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

// scripts/ci-budget.mjs: CI's stage times and the budget a run must keep (.ci/run; docs/running.md).
const BUDGET = 'scripts/ci-budget.mjs';

/** A fake CI run in the shape of .ci/run: a ledger, stages, the report. `slow` seconds are slept in one stage. */
function fakeRun(slow: number, reportArgs: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'prose-ci-budget-'));
  const ledger = join(dir, 'ledger');
  const node = (...args: string[]) => spawnSync(process.execPath, [BUDGET, ...args], { encoding: 'utf8' });
  try {
    node('start', ledger);
    const install = node('stage', ledger, 'install', '--', process.execPath, '-e', '0');
    const specs = node('stage', ledger, 'specs', '--', process.execPath, '-e', `setTimeout(() => {}, ${slow * 1000})`);
    const failing = node('stage', ledger, 'matrix', '--', process.execPath, '-e', 'process.exit(3)');
    const report = node('report', ledger, ...reportArgs);
    return { install, specs, failing, report, events: readFileSync(ledger, 'utf8').trim().split('\n') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a deliberately slowed run fails the budget, naming the total, the budget, its longest stage and where it is kept', () => {
  // 0.02 minutes is 1.2 s; the specs stage sleeps 1.5 s.
  const run = fakeRun(1.5, ['--budget-minutes', '0.02']);
  assert.is(run.report.status, 1, run.report.stdout);
  assert.match(run.report.stdout, /^ci: stage install +0m0\ds$/m);
  assert.match(run.report.stdout, /^ci: stage specs +0m0[2-9]s$/m);
  assert.match(run.report.stdout, /^ci: total +0m\d\ds of a 0\.02-minute budget$/m);
  assert.match(
    run.report.stdout,
    /ci: FAILED: the run took 0m\d\ds, past its budget of 0\.02 minutes \(the longest stage: specs/,
  );
  assert.match(run.report.stdout, /BUDGET_MINUTES in scripts\/ci-budget\.mjs/);
});

test('the same run within its budget passes, and a failed stage is marked and passes its exit status on', () => {
  const run = fakeRun(0.2, ['--budget-minutes', '5']);
  assert.is(run.report.status, 0, run.report.stdout);
  assert.not.match(run.report.stdout, /FAILED/);
  assert.is(run.install.status, 0);
  assert.is(run.failing.status, 3);
  assert.match(run.report.stdout, /^ci: stage matrix +0m0\ds  \(failed\)$/m);
  assert.is(run.events.length, 4, 'the start and one line per stage');
});

test('the budget is kept in one place: 50 minutes in the script, and .ci/run never overrides it', () => {
  assert.match(readFileSync(BUDGET, 'utf8'), /^const BUDGET_MINUTES = 50;$/m);
  const ci = readFileSync('.ci/run', 'utf8');
  assert.not.match(ci, /--budget-minutes/);
  assert.match(ci, /node "\$budget" report "\$ledger"/);
  for (const stage of ['install', 'build', 'specs', 'matrix', 'node20', 'selftest'])
    assert.match(ci, new RegExp(`stage"? "?(\\$3"? )?${stage} --`), `stage ${stage} is timed`);
});

test('misuse is a usage error (exit 2)', () => {
  const r = spawnSync(process.execPath, [BUDGET, 'stage', join(tmpdir(), 'x'), 'specs', 'npm', 'test'], {
    encoding: 'utf8',
  });
  assert.is(r.status, 2);
  assert.match(r.stderr, /stage takes NAME -- CMD/);
});

test.run();
