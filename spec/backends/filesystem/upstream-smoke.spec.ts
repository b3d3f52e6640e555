import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { NODES, writeFinishedRun, writeFunctionRun } from './_current-run.ts';

// What upstream's smoke harness (.github/scripts/openprose-smoke/run.ts) asks of a finished mounted run, asked here
// of a run our filesystem backend wrote in the current edition. Our own checks, from the facts it checks.

/** Every file's text under `dir`, for the whole-tree line checks. */
function allTexts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? allTexts(join(dir, e.name)) : e.isFile() ? [readFileSync(join(dir, e.name), 'utf8')] : [],
  );
}

/** The first file named `{name}.md` anywhere under `dir`. */
function findOutput(dir: string, name: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isFile() && e.name === `${name}.md`) return p;
    const inner = e.isDirectory() ? findOutput(p, name) : undefined;
    if (inner) return inner;
  }
  return undefined;
}

test('a finished current-edition run has root.prose.md, a non-empty vm.log.md and non-empty receipts', async () => {
  const { root, runDir } = await writeFinishedRun();
  assert.equal(
    readdirSync(join(root, 'runs')),
    [runDir.split('/').at(-1)],
    'the run is the latest (only) run under runs/',
  );
  for (const artifact of ['root.prose.md', 'vm.log.md']) {
    assert.ok(statSync(join(runDir, artifact)).isFile(), `${artifact} is a file`);
    assert.ok(readFileSync(join(runDir, artifact), 'utf8').trim().length > 0, `${artifact} is not empty`);
  }
  assert.ok(
    allTexts(join(runDir, 'receipts')).some((t) => t.trim().length > 0),
    'a non-empty receipt under receipts/',
  );
});

test('vm.log.md holds a rendered marker for each committed node, and no run artifact has ---error or ---test FAIL', async () => {
  const { root, runDir } = await writeFinishedRun();
  const log = readFileSync(join(runDir, 'vm.log.md'), 'utf8').split('\n');
  for (const node of Object.keys(NODES))
    assert.ok(
      log.some((l) => new RegExp(`^[1-9][0-9]*→ ${node} ✓ rendered$`).test(l)),
      `a "N→ ${node} ✓ rendered" line in ${JSON.stringify(log)}`,
    );
  const lines = allTexts(join(root, 'runs')).flatMap((t) => t.split(/\r?\n/));
  assert.not.ok(lines.some((l) => l.startsWith('---error') || l.startsWith('---test FAIL')));
  assert.ok(
    lines.some((l) => l.startsWith('---end ')),
    'the run ends with ---end',
  );
});

test("each node's declared outputs are non-empty files under world-model/", async () => {
  const { runDir } = await writeFinishedRun();
  for (const outputs of Object.values(NODES))
    for (const output of outputs) {
      const file = findOutput(join(runDir, 'world-model'), output);
      assert.ok(file, `${output}.md under world-model/`);
      assert.ok(readFileSync(file!, 'utf8').trim().length > 0, `${output}.md is not empty`);
    }
});

test('a function run has its declared output under bindings/ (smoke outputRoot "bindings"), not empty', async () => {
  const { runDir } = await writeFunctionRun();
  for (const artifact of ['root.prose.md', 'vm.log.md']) assert.ok(statSync(join(runDir, artifact)).isFile());
  const found = findOutput(join(runDir, 'bindings'), 'echo');
  assert.ok(found && readFileSync(found, 'utf8').trim().length > 0, 'smoke finds a non-empty bindings/**/echo.md');
  // The copy-on-return file itself, beside the binding file of decision current-bindings.
  const copied = join(runDir, 'bindings', 'smoke-caller-input', 'echo.md');
  assert.is(readFileSync(copied, 'utf8'), 'caller-input-smoke-pass\n');
});

test.run();
