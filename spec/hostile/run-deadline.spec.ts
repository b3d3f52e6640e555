import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';
import { main } from '../../src/cli/main.ts';
import { EXIT } from '../../src/cli/io.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { loadSuite } from '../../src/conformance/load-suite.ts';
import { runSuite } from '../../src/conformance/run-suite.ts';
import { captureIo, tempSuite } from '../helpers/temp-suite.ts';
import { forkingCommand } from '../plugin/fixtures/plugin-commands.ts';
import { goneWithin, pidFrom } from '../plugin/fixtures/process-alive.ts';

// A whole-run deadline for `test` (issue 34): past it the run stops, says how many cases did not run and why, leaves
// no child process behind, writes well-formed reports and exits 3.

const BIN = fileURLToPath(new URL('../../bin/prose-state.js', import.meta.url));
const validate = new Ajv({ discriminator: true, allErrors: true }).compile(
  JSON.parse(readFileSync(new URL('../../conformance/schema/report.schema.json', import.meta.url), 'utf8')) as object,
);
const idleWorker = fileURLToPath(new URL('../conformance/fixtures/ready-then-idle-worker.js', import.meta.url));

/** Five cases that each resolve a name in the case's run: a plugin told to hang on resolve hangs each. */
const RESOLVE_CASES = `area: d
cases:
${[1, 2, 3, 4, 5]
  .map(
    (i) => `  - id: d/c${i}
    title: resolve ${i}
    steps:
      - op: resolve
        args: { name: x }
        error: E_NOT_FOUND
`,
  )
  .join('')}`;

/** The crash workers this process started that still run (tsx keeps an esbuild service of its own beside them). */
function workers(): string[] {
  const r = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return r.stdout.split('\n').filter((l) => l.includes('ready-then-idle-worker'));
}

test('--deadline 2 on a plugin that hangs: exit 3, cut short by the deadline, reports whole, no process left', async () => {
  const suite = tempSuite({ 'd.yaml': RESOLVE_CASES });
  const dir = mkdtempSync(join(tmpdir(), 'prose-deadline-'));
  const pidFile = join(dir, 'sleep.pid');
  try {
    const t0 = Date.now();
    const r = spawnSync(
      process.execPath,
      [BIN, 'test', '--suite', suite, '--backend', `exec:${forkingCommand(pidFile, 'hang', 'resolve')}`].concat([
        '--deadline',
        '2',
        '--timeout',
        '60000',
        '--report-dir',
        join(dir, 'out'),
        '--reporter',
        'tap',
      ]),
      { encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' },
    );
    const ms = Date.now() - t0;
    assert.is(r.status, EXIT.harness, `${r.stdout}\n${r.stderr}`);
    assert.ok(ms < 20_000, `the run took ${ms} ms past a 2 s deadline`);
    assert.match(r.stdout, /cut short by --deadline after 2 s: 5 cases did not run or finish/);
    const lines = readFileSync(join(dir, 'out', 'report.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(lines.at(-1)!.cutShort, { by: 'deadline', notRun: 5, deadlineMs: 2000 });
    for (const l of lines) assert.ok(validate(l), `${JSON.stringify(validate.errors)}\n${JSON.stringify(l)}`);
    const junit = readFileSync(join(dir, 'out', 'report.junit.xml'), 'utf8');
    const parsed = spawnSync('python3', ['-c', 'import sys, xml.etree.ElementTree as E; E.parse(sys.stdin)'], {
      input: junit,
      encoding: 'utf8',
    });
    assert.is(parsed.status, 0, parsed.stderr);
    assert.ok(await goneWithin(await pidFrom(pidFile), 5000), 'the plugin left a process running');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(suite, { recursive: true, force: true });
  }
});

test('PROSE_STATE_DEADLINE is the twin; bad values are usage errors naming the flag', async () => {
  for (const bad of ['0', 'abc', '-3', '1e3', '']) {
    const c = captureIo();
    const code = await main(['test', '--backend', 'filesystem', `--deadline=${bad}`], c.io);
    assert.is(code, EXIT.usage, `--deadline=${bad}: ${c.err()}`);
    assert.match(c.err(), `--deadline must be a positive number of seconds, got ${JSON.stringify(bad)}`);
  }
  const c = captureIo({ PROSE_STATE_DEADLINE: 'soon' });
  assert.is(await main(['test', '--backend', 'filesystem'], c.io), EXIT.usage);
  assert.match(c.err(), '--deadline must be a positive number of seconds, got "soon"');
});

test('a deadline kills the crash workers of a case in flight and runSuite returns with the cut told', async () => {
  const suite = loadSuite(
    tempSuite({
      'k.yaml': `area: k
cases:
  - id: k/slow
    title: a crash case whose kills wait up to a minute
    requires: [durable, multi-process]
    steps:
      - crash: { workload: bindings, kills: 4, max-delay-ms: 60000 }
  - id: k/never
    title: never reached
    requires: [durable, multi-process]
    steps:
      - crash: { workload: bindings, kills: 1, max-delay-ms: 10 }
`,
    }),
  );
  const footers: Record<string, unknown>[] = [];
  const t0 = Date.now();
  const results = await runSuite({
    suite,
    factories: [{ ...filesystemFactory, spec: 'filesystem' }],
    decisions: DEFAULT_DECISIONS,
    filter: { areas: [], ids: [] },
    listener: { header() {}, result() {}, footer: (_b, _c, extra) => void footers.push(extra) },
    workerCommand: [process.execPath, idleWorker],
    seed: 7,
    deadline: { ms: 1500 },
  });
  assert.ok(Date.now() - t0 < 10_000, `runSuite took ${Date.now() - t0} ms`);
  assert.equal(results, []);
  assert.equal(footers.at(-1)!.cutShort, { by: 'deadline', notRun: 2, deadlineMs: 1500 });
  const until = Date.now() + 5000;
  while (workers().length && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  assert.equal(workers(), [], 'a crash worker outlived the deadline');
});

test.run();
