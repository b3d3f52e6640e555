import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { currentRunVerifier } from '../../../src/verify/current-run/index.ts';
import { openCurrent, writeFinishedRun, writeFunctionRun } from './_current-run.ts';

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

test('a faceted node (published/<facet>/ subtrees, a token per facet in its receipts) verifies clean', async () => {
  const base = mkdtempSync(join(tmpdir(), 'fs-facets-'));
  const [root, home] = [join(base, 'project'), join(base, 'home')];
  mkdirSync(root);
  mkdirSync(home);
  const b = await openCurrent(root, home, base);
  const VM = { role: 'vm' } as const;
  const { run } = await b.call('createRun', { program: '# m\n' }, VM);
  await b.call('writeEnvelope', { run, compiledIntent: { nodes: ['monitor'] }, rootSource: '# m\n' }, VM);
  for (const roles of ['3 open\n', '4 open\n']) {
    const files = {
      'competitors.md': '# Acme\n',
      'published/funding/events.md': 'seed\n',
      'published/hiring/roles.md': roles,
    };
    await b.call('commitWorldModel', { run, node: 'monitor', contract: 'c', facets: ['funding', 'hiring'], files }, VM);
  }
  await b.call('setRunStatus', { run, status: 'completed' }, VM);
  await b.close();
  assert.ok(existsSync(join(root, 'runs', run, 'world-model', 'monitor', 'published', 'hiring', 'roles.md')));
  assert.equal(await currentRunVerifier.verify(root, { homeDir: home }), []);
});

test.run();
