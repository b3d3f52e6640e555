// The cases that cannot hold on a platform (decisions, area platforms) are skipped there with the reason, and only
// those: on win32, cases with a scripted subagent on sqlite storage (no /bin/sh); nothing on linux.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { builtinSuite } from '../helpers/builtin-suite.ts';
import { platformSkip } from '../../src/conformance/platform-skips.ts';

const suite = builtinSuite();
const withSubagent = suite.cases.filter((c) => c.steps.some((s) => s.kind === 'subagent'));

test('the suite has scripted-subagent cases, so the rule is not vacuous', () => {
  assert.ok(withSubagent.length > 0);
});

test('win32: every sqlite case with a subagent step is skipped, naming /bin/sh and the decision', () => {
  for (const c of withSubagent) {
    const why = platformSkip(c, 'sqlite', 'win32');
    assert.ok(why, c.id);
    assert.match(why!, /\/bin\/sh/);
    assert.match(why!, /platform-subagent-shell/);
  }
});

test('win32: directory and postgres storage run the same cases; no other case is skipped', () => {
  for (const c of suite.cases) {
    assert.is(platformSkip(c, 'directory', 'win32'), undefined, c.id);
    assert.is(platformSkip(c, 'postgres', 'win32'), undefined, c.id);
    if (!withSubagent.includes(c)) assert.is(platformSkip(c, 'sqlite', 'win32'), undefined, c.id);
  }
});

test('linux: nothing is skipped for the platform', () => {
  for (const c of suite.cases) assert.is(platformSkip(c, 'sqlite', 'linux'), undefined, c.id);
});

test.run();
