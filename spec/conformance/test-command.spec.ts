import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync } from 'node:fs';
import { main } from '../../src/cli/main.ts';
import { captureIo, PASS_FAIL_SKIP_CASES, tempSuite } from '../helpers/temp-suite.ts';

const suiteDir = tempSuite({ 'a.yaml': PASS_FAIL_SKIP_CASES });
// Judged in v0 alone (--edition v0): the counts below are of one run per backend, and the filesystem backend also
// declares the current edition, which the default --edition all would judge as a second run.

test('the JSON reporter writes a header, one line per case and a footer whose counts match', async () => {
  const c = captureIo();
  const code = await main(
    ['test', '--backend', 'filesystem', '--edition', 'v0', '--suite', suiteDir, '--reporter', 'json'],
    c.io,
  );
  const lines = c
    .out()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.is(code, 1);
  assert.is(lines[0].type, 'header');
  assert.is(lines[0].decisions.attachmentThresholdBytes, 102400);
  const cases = lines.filter((l) => l.type === 'case');
  assert.is(cases.length, 3);
  const footer = lines.at(-1);
  assert.is(footer.type, 'footer');
  assert.equal(footer.counts, { passed: 1, failed: 1, skipped: 1, errored: 0, xfailed: 0, xpassed: 0, total: 3 });
  assert.match(cases.find((l) => l.id === 'a/skips').reason, /needs capability layout:postgres/);
});

test('zero matching cases is a usage error, exit 2', async () => {
  const c = captureIo();
  assert.is(await main(['test', '--backend', 'filesystem', '--suite', suiteDir, '--case', 'a/none'], c.io), 2);
  assert.match(c.err(), /no case matches/);
});

test('an unknown backend or option is a usage error naming it', async () => {
  const c = captureIo();
  assert.is(await main(['test', '--backend', 'nosuch', '--suite', suiteDir], c.io), 2);
  assert.match(c.err(), /unknown backend "nosuch"/);
  const d = captureIo();
  assert.is(await main(['test', '--bogus'], d.io), 2);
  assert.match(d.err(), /Unknown option '--bogus'/);
});

test('an expectations file turns the known failure into xfail and the run passes', async () => {
  const { writeFileSync } = await import('node:fs');
  const file = `${suiteDir}/expect.yaml`;
  writeFileSync(file, 'expectations:\n  a/fails:\n    outcome: fail\n    reason: on purpose\n');
  const c = captureIo();
  // Without the capability probes, the TAP plan counts the cases alone.
  assert.is(
    await main(
      [
        'test',
        '--backend',
        'filesystem',
        '--edition',
        'v0',
        '--suite',
        suiteDir,
        '--expect',
        file,
        '--reporter',
        'tap',
        '--no-probe',
      ],
      c.io,
    ),
    0,
  );
  assert.match(c.out(), /not ok \d+ - filesystem a\/fails # TODO on purpose/);
  assert.match(c.out(), /^1\.\.3$/m);
});

test('junit and pretty reports name the failure and its place', async () => {
  const j = captureIo();
  await main(['test', '--backend', 'filesystem', '--edition', 'v0', '--suite', suiteDir, '--reporter', 'junit'], j.io);
  assert.match(j.out(), /<testsuite name="filesystem" tests="3" failures="1" errors="0" skipped="1"/);
  const p = captureIo();
  await main(['test', '--backend', 'filesystem', '--edition', 'v0', '--suite', suiteDir], p.io);
  assert.match(p.out(), /FAIL {2}a\/fails {2}.*a\.yaml:12/);
  assert.match(p.out(), /^conformance: 1 passed, 1 failed, 1 skipped$/m);
});

test.after(() => rmSync(suiteDir, { recursive: true, force: true }));
test.run();
