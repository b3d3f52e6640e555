import { rmSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadSuite } from '../../src/conformance/load-suite.ts';
import { runSuite } from '../../src/conformance/run-suite.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { execFactory } from '../../src/plugin/exec-factory.ts';
import { tempSuite } from '../helpers/temp-suite.ts';
import { misbehavingCommand } from './fixtures/plugin-commands.ts';

// A plugin of kind directory keeping its own files: the seed layout is claimed by layout:directory, not by the kind.
const CASES = `area: lay
cases:
  - id: lay/bind-and-look
    title: a binding, then its seed file
    steps:
      - op: bind
        args: { name: x, kind: let, value: v }
      - layout: directory
        file: .prose/runs/\${run}/bindings/x.md
        contains: v
`;

async function outcomeWith(caps: string) {
  const dir = tempSuite({ 'lay.yaml': CASES });
  try {
    const factory = await execFactory(misbehavingCommand('', '', `MISBEHAVE_KIND=directory MISBEHAVE_CAPS=${caps}`));
    const [r] = await runSuite({
      suite: loadSuite(dir),
      factories: [factory],
      decisions: { ...DEFAULT_DECISIONS },
      filter: { areas: [], ids: [] },
      listener: { header() {}, result() {}, footer() {} },
    });
    return r!.outcome;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('kind directory without layout:directory: layout steps are not applicable and the case passes', async () => {
  const o = await outcomeWith('');
  assert.equal(o, { status: 'passed', layoutChecks: 0, layoutNotApplicable: 1 });
});

test('kind directory with layout:directory: the seed file is checked (and missing here), with no talk of storage()', async () => {
  const o = await outcomeWith('layout:directory');
  assert.is(o.status, 'failed');
  const text = JSON.stringify(o);
  assert.match(text, /bindings\/x\.md does not exist/);
  assert.not.match(text, /storage\(\)/);
});

test.run();
