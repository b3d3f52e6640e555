import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
// @ts-expect-error: the spec runner is plain JavaScript (it starts before tsx is loaded in its workers)
import * as plan from '../../scripts/specs/plan.mjs';

// The spec runner (scripts/specs/run-specs.mjs): its plan, its counting, and a whole run over fixture spec files.
const { closingLine, countOutput, planRun, quickFiles, touchedSpecs, withoutTotals } = plan;
const durations = {
  seconds: { 'spec/a.spec.ts': 1, 'spec/b.spec.ts': 30, 'spec/c.spec.ts': 0.2, 'spec/d.spec.ts': 12 },
  alone: { 'spec/d.spec.ts': 'times a child process' },
};

test('longest first, unknown files at the mean of the known, the alone ones after the rest', () => {
  const plan = planRun(
    ['spec/a.spec.ts', 'spec/b.spec.ts', 'spec/c.spec.ts', 'spec/d.spec.ts', 'spec/new.spec.ts'],
    durations,
  );
  // The mean of 1, 30, 0.2 and 12 is 10.8: the new file goes after b and before a.
  assert.equal(plan.shared, ['spec/b.spec.ts', 'spec/new.spec.ts', 'spec/a.spec.ts', 'spec/c.spec.ts']);
  assert.equal(plan.alone, ['spec/d.spec.ts']);
  assert.is(plan.estimate('spec/new.spec.ts'), 10.8);
  assert.is(planRun(['spec/x.spec.ts'], { seconds: {} }).estimate('spec/x.spec.ts'), 1);
});

test('the quick tier: measured and short, never an alone file, plus whatever the change touches', () => {
  const files = ['spec/a.spec.ts', 'spec/b.spec.ts', 'spec/c.spec.ts', 'spec/d.spec.ts', 'spec/new.spec.ts'];
  assert.equal(quickFiles(files, durations, 1), ['spec/a.spec.ts', 'spec/c.spec.ts']);
  assert.equal(quickFiles(files, durations, 1, new Set(['spec/b.spec.ts'])), [
    'spec/a.spec.ts',
    'spec/b.spec.ts',
    'spec/c.spec.ts',
  ]);
});

test('a change touches the specs it edits and those that import a changed module by name', () => {
  const sources = new Map([
    ['spec/a.spec.ts', "import { x } from '../src/core/hash.ts';"],
    ['spec/b.spec.ts', "import { y } from '../src/core/other.ts';"],
    ['spec/c.spec.ts', "import { z } from '../scripts/specs/plan.mjs';"],
  ]);
  const touched = touchedSpecs(['src/core/hash.ts', 'spec/b.spec.ts', 'scripts/specs/plan.mjs', 'README.md'], sources);
  assert.equal([...touched].sort(), ['spec/a.spec.ts', 'spec/b.spec.ts', 'spec/c.spec.ts']);
  assert.equal([...touchedSpecs(['docs/running.md'], sources)], []);
});

test("a file's counts come from uvu's totals; no totals or a dead worker is a failure", () => {
  const out =
    '\x1b[1mspec/a.spec.ts\x1b[22m\n• ✘  (1 / 2)\n\n  Total:     2\x1b[31m\n  Passed:    1\x1b[39m\n  Skipped:   3\n  Duration:  5.00ms\n\n';
  assert.equal(countOutput(out, false), { passed: 1, failed: 1, skipped: 3 });
  assert.equal(countOutput(out, true), { passed: 1, failed: 2, skipped: 3 });
  assert.equal(countOutput('spec/a.spec.ts: the spec file failed to load\nSyntaxError', false), {
    passed: 0,
    failed: 1,
    skipped: 0,
  });
  assert.is(withoutTotals(out), '\x1b[1mspec/a.spec.ts\x1b[22m\n• ✘  (1 / 2)\n');
  assert.is(closingLine({ passed: 3, failed: 0, skipped: 2 }), '3 passed, 0 failed, 2 skipped');
});

/** Runs the runner over fixture spec files written to a temp dir (they import uvu by its resolved URL). */
function runOver(files: Record<string, string>, ...args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'prose-run-specs-'));
  args = args.map((a) => a.replaceAll('{dir}', dir));
  const uvu = import.meta.resolve('uvu');
  const assertions = import.meta.resolve('uvu/assert');
  try {
    for (const [name, body] of Object.entries(files))
      // The durations file names files as the runner does: relative to the checkout.
      if (name.endsWith('.json')) writeFileSync(join(dir, name), body.replaceAll('{dir}', relative('.', dir)));
      else
        writeFileSync(
          join(dir, name),
          `import { test } from '${uvu}';\nimport * as assert from '${assertions}';\n${body.replaceAll('{dir}', dir)}\ntest.run();\n`,
        );
    const env = { ...process.env, PROSE_STATE_SPEC_JOBS: '2' };
    const r = spawnSync(process.execPath, ['scripts/specs/run-specs.mjs', dir, ...args], { encoding: 'utf8', env });
    // The durations file as the run left it (--record-durations writes it), read before the folder goes.
    const durations = existsSync(join(dir, 'durations.json')) ? readFileSync(join(dir, 'durations.json'), 'utf8') : '';
    return { ...r, durations, dir: relative('.', dir) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a whole run: each file whole, a failing file with its failure, the closing line, exit 1', () => {
  const r = runOver({
    'one.spec.ts': "test('first', () => {});\ntest('second', () => {});",
    'two.spec.ts':
      "test('fine', () => {});\ntest('broken', () => { console.log('said before failing'); assert.is(1, 2); });",
    'three.spec.ts': "test('slow', async () => { await new Promise((r) => setTimeout(r, 300)); });",
    'dies.spec.ts': "test('exits', () => { process.exit(9); });",
  });
  const plain = r.stdout.replace(/\x1b\[[0-9;]*m/g, '');
  assert.is(r.status, 1, plain);
  // The failing file's output is one block: its header, its log line, its failure report, nothing between.
  assert.match(
    plain,
    /two\.spec\.ts\n(?:said before failing\n)?• (said before failing\n)?✘ +\(1 \/ 2\)\n\n +FAIL +"broken"/,
  );
  assert.match(plain, /the spec worker exited \(code 9\) while this file ran/);
  assert.match(plain, /specs: 4 files on 2 workers in/);
  assert.match(plain, /failing files:\n(  .*\n){2}/);
  // Passed: one's two, three's one, two's fine; failed: two's broken and the file whose worker died.
  assert.match(plain, /\n4 passed, 2 failed, 0 skipped\n$/);
});

test('files of one apart set never overlap, other files do; an alone file runs with nothing beside it', () => {
  // Each file holds a lock file for 400 ms and fails when another holds it: with 2 workers they would overlap.
  const holds = (lock: string) =>
    `import { existsSync, rmSync, writeFileSync } from 'node:fs';\n` +
    `test('holds ${lock}', async () => {\n` +
    `  assert.not.ok(existsSync('{dir}/${lock}'), 'another file holds ${lock}');\n` +
    `  writeFileSync('{dir}/${lock}', '');\n` +
    `  await new Promise((r) => setTimeout(r, 400));\n` +
    `  rmSync('{dir}/${lock}');\n});`;
  const meets = (me: string, other: string) =>
    `import { existsSync, writeFileSync } from 'node:fs';\n` +
    `test('meets ${other}', async () => {\n` +
    `  writeFileSync('{dir}/${me}.here', '');\n` +
    `  for (let i = 0; i < 200 && !existsSync('{dir}/${other}.here'); i++) await new Promise((r) => setTimeout(r, 50));\n` +
    `  assert.ok(existsSync('{dir}/${other}.here'), '${other} never ran beside ${me}');\n});`;
  const r = runOver(
    {
      'a.spec.ts': holds('set'),
      'b.spec.ts': holds('set'),
      'c.spec.ts': holds('all'),
      'd.spec.ts': `${holds('other')}\ntest('no lock of the alone file', () => assert.not.ok(existsSync('{dir}/all')));`,
      // Two files of no set meet: each waits (up to 10 s) for the other to have started, so they ran side by side.
      'e.spec.ts': meets('e', 'f'),
      'f.spec.ts': meets('f', 'e'),
      'durations.json': JSON.stringify({
        seconds: {},
        alone: { '{dir}/c.spec.ts': 'holds all' },
        apart: { locks: { why: 'share the set lock', files: ['{dir}/a.spec.ts', '{dir}/b.spec.ts'] } },
      }),
    },
    '--durations',
    '{dir}/durations.json',
  );
  const plain = r.stdout.replace(/\x1b\[[0-9;]*m/g, '');
  assert.is(r.status, 0, plain);
  assert.match(plain, /\n7 passed, 0 failed, 0 skipped\n$/);
  // The alone file is the last one told.
  assert.match(plain, /c\.spec\.ts\n[^\n]*\(1 \/ 1\)[^\n]*\n\nspecs: 6 files/);
});

test("--record-durations keeps each file's wall seconds and its CPU seconds, its child processes' included", () => {
  // The child burns 1.5 s of CPU (its own clock, so a loaded machine cannot shorten it) while the file's own process
  // only waits for it: the worker's own usage would miss it. The other file sleeps: what it costs is loading it.
  const burn = 'let x = 0; while (process.cpuUsage().user < 1.5e6) x++;';
  const r = runOver(
    {
      'burns.spec.ts':
        "import { spawnSync } from 'node:child_process';\n" +
        `test('a child computes', () => { assert.is(spawnSync(process.execPath, ['-e', ${JSON.stringify(burn)}]).status, 0); });`,
      'waits.spec.ts': "test('sleeps', async () => { await new Promise((r) => setTimeout(r, 600)); });",
      'durations.json': JSON.stringify({ seconds: {} }),
    },
    '--record-durations',
    '--durations',
    '{dir}/durations.json',
  );
  assert.is(r.status, 0, r.stdout);
  const { seconds, cpu } = JSON.parse(r.durations);
  const [burns, waits] = ['burns', 'waits'].map((f) => `${r.dir}/${f}.spec.ts`);
  assert.ok(seconds[burns] >= 0.55 && seconds[waits] >= 0.55, JSON.stringify(seconds));
  assert.ok(cpu[burns] >= 1.2, `the child's CPU is counted: ${JSON.stringify(cpu)}`);
  assert.ok(cpu[waits] < 1, `waiting is not CPU: ${JSON.stringify(cpu)}`);
  assert.match(r.stdout.replace(/\x1b\[[0-9;]*m/g, ''), /\[\d+\.\d s, \d+\.\d s CPU\]/);
});

test('zero spec files is an error, not a pass', () => {
  const r = runOver({ 'not-a-spec.ts': "test('x', () => {});" });
  assert.is(r.status, 1);
  assert.match(r.stderr, /no spec file ran/);
  assert.match(r.stdout, /^0 passed, 0 failed, 0 skipped$/m);
});

test.run();
