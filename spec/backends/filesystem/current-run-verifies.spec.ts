import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { currentRunVerifier } from '../../../src/verify/current-run/index.ts';
import { writeFinishedRun, writeFunctionRun } from './_current-run.ts';

// A current-edition run our filesystem backend wrote verifies clean (issue #31, "Done when"): the run directory,
// and the <openprose-root> holding it (which adds the durable state/ checks).
test('a current-edition run written by the filesystem backend verifies clean, as a run and as a root', async () => {
  const { root, home, runDir } = await writeFinishedRun();
  for (const path of [runDir, root]) {
    assert.ok(await currentRunVerifier.detect(path), `${path} is detected as current-run`);
    const findings = await currentRunVerifier.verify(path, { homeDir: home });
    assert.equal(findings, [], `findings of ${path}`);
  }
});

test('a run with a caller input (world-model/caller/ and its [input] marker) verifies clean', async () => {
  const { home, runDir } = await writeFinishedRun({ callerInput: true });
  assert.equal(await currentRunVerifier.verify(runDir, { homeDir: home }), []);
});

test('a run whose nodes render as a parallel group (∥start, a branch line per node, ∥done) verifies clean', async () => {
  const { home, runDir } = await writeFinishedRun({ parallel: true });
  assert.match(
    readFileSync(join(runDir, 'vm.log.md'), 'utf8'),
    /\n1→ ∥start researcher,synthesizer\n1a→ researcher ✓ rendered\n/,
  );
  assert.equal(await currentRunVerifier.verify(runDir, { homeDir: home }), []);
});

test('a function run (activation record, bindings/{function}/, N→ function ✓) verifies clean', async () => {
  const { home, runDir } = await writeFunctionRun();
  assert.equal(await currentRunVerifier.verify(runDir, { homeDir: home }), []);
});

test.run();
