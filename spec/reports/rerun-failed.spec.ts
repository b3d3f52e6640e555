import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli as run } from '../helpers/run-cli.ts';
import { PASS_FAIL_SKIP_CASES, tempSuite } from '../helpers/temp-suite.ts';

const suiteDir = tempSuite({ 'a.yaml': PASS_FAIL_SKIP_CASES });
const report = join(suiteDir, 'first.jsonl');

const cases = (out: string) =>
  out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; backend?: string; id?: string; seed?: number })
    .filter((l) => l.type === 'case')
    .map((l) => `${l.backend} ${l.id}`);

// Judged in v0 alone (--edition v0): the counts are of one run per backend, and the filesystem backend also declares
// the current edition, which the default --edition all would judge as a second run.
test('--rerun-failed runs only what failed, on the backends it failed on, with the saved seed', async () => {
  const first = await run([
    ...'test --backend filesystem --backend in-context --edition v0 --seed 77 --reporter json --no-probe'.split(' '),
    '--suite',
    suiteDir,
  ]);
  assert.is(first.code, 1);
  writeFileSync(report, first.out);
  assert.is(cases(first.out).length, 6);
  const again = await run(['test', '--suite', suiteDir, '--rerun-failed', report, '--reporter', 'json', '--no-probe']);
  assert.is(again.code, 1, again.err);
  assert.equal(cases(again.out), ['filesystem a/fails', 'in-context a/fails']);
  assert.is(JSON.parse(again.out.split('\n')[0]!).seed, 77);
});

test('--rerun-failed with --backend runs the failed cases there instead', async () => {
  const r = await run([
    'test',
    '--suite',
    suiteDir,
    '--rerun-failed',
    report,
    '--backend',
    'filesystem',
    '--edition',
    'v0',
    '--reporter',
    'json',
    '--no-probe',
  ]);
  assert.is(r.code, 1);
  assert.equal(cases(r.out), ['filesystem a/fails']);
});

test('a report where nothing failed has nothing to rerun (exit 0)', async () => {
  const clean = join(suiteDir, 'clean.jsonl');
  const ok = await run([
    'test',
    '--backend',
    'filesystem',
    '--suite',
    suiteDir,
    '--case',
    'a/passes',
    '--reporter',
    'json',
    '--no-probe',
  ]);
  writeFileSync(clean, ok.out);
  const r = await run(['test', '--suite', suiteDir, '--rerun-failed', clean]);
  assert.is(r.code, 0);
  assert.match(r.out, /nothing failed or errored in .*clean\.jsonl/);
});

test('an unreadable report or one of another suite version is a clear error naming it', async () => {
  const missing = await run(['test', '--suite', suiteDir, '--rerun-failed', join(suiteDir, 'nope.jsonl')]);
  assert.is(missing.code, 3);
  assert.match(missing.err, /E_FORMAT at .*nope\.jsonl: cannot read the report/);
  const garbage = join(suiteDir, 'garbage.jsonl');
  writeFileSync(garbage, 'not json\n{"type":"header"}\n');
  const g = await run(['test', '--suite', suiteDir, '--rerun-failed', garbage]);
  assert.is(g.code, 3);
  assert.match(g.err, /garbage\.jsonl:1: not a JSON line/);
  // The built-in suite is another suite (name and version) than the one the report ran.
  const other = await run(['test', '--rerun-failed', report]);
  assert.is(other.code, 2);
  assert.match(other.err, /first\.jsonl:1: .*is a report of temp 0\.0\.1, not of the suite run here/);
});

test.run();
