import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../src/core/actor.ts';
import { ProseError } from '../../src/core/errors.ts';
import { moduleFactory } from '../../src/plugin/module-factory.ts';
import { tempEnv } from './fixtures/temp-env.ts';

// A module plugin whose calls never settle: each must end as E_PLUGIN after the plugin timeout, like an exec request.
const NEVER = fileURLToPath(new URL('./fixtures/modules/never-settles.js', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/prose-state.js', import.meta.url));

test('a module call that never settles is E_PLUGIN naming the op and the timeout', async () => {
  const f = await moduleFactory(NEVER, { timeoutMs: 200 });
  const env = tempEnv('module-hang');
  try {
    const b = await f.open(env);
    const err = await b.call('createRun', { program: 'p' }, VM).catch((e: unknown) => e);
    assert.instance(err, ProseError);
    assert.is((err as ProseError).code, 'E_PLUGIN');
    assert.match((err as ProseError).message, 'call createRun');
    assert.match((err as ProseError).message, '200 ms');
    await b.close();
  } finally {
    env.cleanup();
  }
});

// One case that has the runner create its run (a call the runner itself does not time) on the hanging plugin.
const CASES = `area: module-hang
spec: 'a hung module plugin errors the case'
cases:
  - id: module-hang/create
    title: the runner creates the run
    steps:
      - op: getRun
        args: { run: "\${run}" }
`;

test('test on a hung module plugin: exit 3, E_PLUGIN in the output, the reports written, no temp dir left', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'prose-plugin-module-hang-'));
  try {
    const suite = join(dir, 'suite');
    mkdirSync(join(suite, 'cases'), { recursive: true });
    writeFileSync(join(suite, 'suite.yaml'), 'name: module-hang\nversion: 0.0.1\n');
    writeFileSync(join(suite, 'cases', 'module-hang.yaml'), CASES);
    const temp = join(dir, 'tmp');
    mkdirSync(temp);
    const reports = join(dir, 'reports');
    const args = ['--suite', suite, '--no-probe', '--jobs', '1', '--report-dir', reports];
    const child = spawn(process.execPath, [BIN, 'test', ...args, '--backend', `module:${NEVER}`], {
      env: { ...process.env, TMPDIR: temp, PROSE_STATE_PLUGIN_TIMEOUT: '1500' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise((r) => child.on('close', r));
    assert.is(code, 3, out);
    assert.match(out, 'E_PLUGIN: module backend never-settles call createRun: no answer within 1500 ms');
    for (const f of ['report.jsonl', 'report.junit.xml', 'report.md', 'report.tap', 'report.html'])
      assert.ok(existsSync(join(reports, f)), `${f} is missing`);
    // tsx keeps its compile cache in the temp dir; the run's own storage must be gone.
    assert.equal(
      readdirSync(temp).filter((e) => !e.startsWith('tsx-')),
      [],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
