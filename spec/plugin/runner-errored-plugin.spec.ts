import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadSuite } from '../../src/conformance/load-suite.ts';
import { runSuite } from '../../src/conformance/run-suite.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { execFactory } from '../../src/plugin/exec-factory.ts';
import { misbehavingCommand } from './fixtures/plugin-commands.ts';

// Three cases: the middle one makes the plugin crash; the runner must report it errored and go on.
const CASES = `area: plugin-faults
spec: 'a crashing plugin errors one case, not the run'
cases:
  - id: plugin-faults/before
    title: a call before the crash works
    steps:
      - op: createRun
        args: { program: first }
        save: f
      - op: getRun
        args: { run: "\${f.run}" }
        expect: { program: first }
  - id: plugin-faults/crash
    title: the plugin crashes on this call
    steps:
      - op: createRun
        args: { program: "misbehave:crash" }
  - id: plugin-faults/after
    title: the next case opens a fresh process
    steps:
      - op: createRun
        args: { program: fine }
        save: r
      - op: getRun
        args: { run: "\${r.run}" }
        expect: { program: fine }
`;

test('the runner reports the crashing case errored with E_PLUGIN evidence, and the next case passes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'prose-plugin-suite-'));
  try {
    mkdirSync(join(dir, 'cases'));
    writeFileSync(join(dir, 'suite.yaml'), 'name: plugin-faults\nversion: 0.0.1\n');
    writeFileSync(join(dir, 'cases', 'plugin-faults.yaml'), CASES);
    const factory = await execFactory(misbehavingCommand());
    const results = await runSuite({
      suite: loadSuite(dir),
      factories: [factory],
      decisions: { ...DEFAULT_DECISIONS },
      filter: { areas: [], ids: [] },
      listener: { header() {}, result() {}, footer() {} },
    });
    const by = Object.fromEntries(results.map((r) => [r.id, r.outcome]));
    assert.is(by['plugin-faults/before']!.status, 'passed', JSON.stringify(by['plugin-faults/before']));
    assert.is(by['plugin-faults/crash']!.status, 'errored');
    assert.match(JSON.stringify(by['plugin-faults/crash']), 'E_PLUGIN');
    assert.match(JSON.stringify(by['plugin-faults/crash']), 'crashing on createRun');
    assert.is(by['plugin-faults/after']!.status, 'passed', JSON.stringify(by['plugin-faults/after']));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
