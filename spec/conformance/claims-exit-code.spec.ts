import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.ts';
import { captureIo, tempSuite } from '../helpers/temp-suite.ts';
import { misbehavingCommand, referenceCommand } from '../plugin/fixtures/plugin-commands.ts';

// One case every backend here passes, so the exit code is the capability claims' alone.
const suiteDir = tempSuite({
  'a.yaml': `area: a
cases:
  - id: a/missing
    title: a missing name is not found
    steps:
      - op: resolve
        args: { name: x }
        error: E_NOT_FOUND
`,
});
const reportDir = mkdtempSync(join(tmpdir(), 'prose-claims-reports-'));
const read = (f: string) => readFileSync(join(reportDir, f), 'utf8');
// The misbehaving plugin declares durable, yet keeps its state in memory: every open is a new process.
const liar = `exec:${misbehavingCommand()}`;

test('a contradicted claim fails the run (exit 1) and shows in every report format', async () => {
  const c = captureIo();
  const code = await main(['test', '--backend', liar, '--suite', suiteDir, '--report-dir', reportDir], c.io);
  assert.is(code, 1, c.out() + c.err());
  assert.match(c.out(), /^conformance: 1 passed, 0 failed, 0 skipped$/m);
  assert.match(c.out(), /Capability claims \(probed in \d+ ms\): \d+ ok, 1 claimed-but-broken, 0 unprobed/);
  assert.match(
    c.out(),
    /CLAIMED-BUT-BROKEN +durable: declared, but a binding was gone after closing and reopening the backend/,
  );
  assert.match(c.out(), /^capability claims: 1 contradicted, 0 errored, 0 unprobed, \d+ ok on 1 backend$/m);
  const records = read('report.jsonl')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(
    records.map((r) => r.type),
    ['header', 'capabilities', 'case', 'footer'],
  );
  assert.equal(
    records[1].verdicts.find((v: { capability: string }) => v.capability === 'durable'),
    {
      capability: 'durable',
      declared: true,
      works: false,
      verdict: 'claimed-but-broken',
      detail: 'declared, but a binding was gone after closing and reopening the backend (E_NOT_FOUND)',
    },
  );
  assert.match(read('report.tap'), /^not ok \d+ - misbehaving capability durable$/m);
  assert.match(
    read('report.junit.xml'),
    /<testsuite name="misbehaving capability claims" tests="\d+" failures="1" errors="0"/,
  );
  assert.match(read('report.md'), /^\| durable \| BROKEN \|$/m);
  assert.match(read('report.html'), /<tr><th>durable<\/th><td class="bad">BROKEN<\/td><\/tr>/);
});

test('honest backends (every embedded one and the reference plugin) show no contradicted claim, exit 0', async () => {
  const c = captureIo();
  const code = await main(
    ['test', '--backend', 'all', '--backend', `exec:${referenceCommand}`, '--suite', suiteDir, '--reporter', 'json'],
    c.io,
  );
  const claims = c
    .out()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((r) => r.type === 'capabilities');
  assert.equal(
    claims.map((r) => r.backend),
    // Every embedded backend declares both editions: its claims are probed in each (--edition all, the default).
    [
      'filesystem',
      'filesystem@current',
      'sqlite',
      'sqlite@current',
      'postgres',
      'postgres@current',
      'in-context',
      'in-context@current',
      'reference',
    ],
  );
  const bad = claims.flatMap((r) =>
    r.verdicts
      .filter((v: { verdict: string }) => !['ok', 'unprobed'].includes(v.verdict))
      .map((v: object) => ({ backend: r.backend, ...v })),
  );
  assert.equal(bad, []);
  assert.is(code, 0, c.err());
});

test('--no-probe and PROSE_STATE_NO_PROBE skip the probes, say so, and the run passes', async () => {
  for (const [argv, env] of [
    [['--no-probe'], {}],
    [[], { PROSE_STATE_NO_PROBE: '1' }],
  ] as const) {
    const c = captureIo({ ...env });
    const code = await main(['test', '--backend', liar, '--suite', suiteDir, '--reporter', 'json', ...argv], c.io);
    const records = c
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.is(records[0].probes, 'skipped');
    assert.not.ok(records.some((r) => r.type === 'capabilities'));
    assert.is(code, 0);
  }
});

test('a probe the plugin crashes on is errored, kept apart from contradictions (exit 3)', async () => {
  const c = captureIo();
  // Crashes on bind: the case never binds, but the durable and attachments probes do.
  const code = await main(
    ['test', '--backend', `exec:${misbehavingCommand('crash', 'bind')}`, '--suite', suiteDir],
    c.io,
  );
  assert.match(c.out(), /ERRORED +durable: E_PLUGIN/);
  assert.not.match(c.out(), /CLAIMED-BUT-BROKEN|UNDECLARED-/);
  assert.is(code, 3, c.out());
});

test.after(() => {
  rmSync(suiteDir, { recursive: true, force: true });
  rmSync(reportDir, { recursive: true, force: true });
});
test.run();
