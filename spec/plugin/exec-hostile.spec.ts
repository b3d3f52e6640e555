import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { goneWithin } from './fixtures/process-alive.ts';

// Hostile plugins over the stdio protocol (issue 34): each attack of fixtures/hostile-plugin.js must end in an
// E_PLUGIN error that names the plugin's command and what it did, in bounded time and memory, with no process of the
// plugin (nor the `sleep` it left in its group) still running afterwards.

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const DRIVER = fileURLToPath(new URL('./fixtures/hostile-driver.ts', import.meta.url));
const MAX_RSS_MB = 400;

interface Drive {
  calls: ({ ok: true } | { code: string; message: string })[];
  ms: number;
  maxRssMb: number;
}

/** The driver in a child process under a 4 GB address-space limit and a 60 s kill, then its pids checked gone. */
async function drive(mode: string, options: Record<string, unknown> = { maxLineBytes: 1 << 20 }): Promise<Drive> {
  const dir = mkdtempSync(join(tmpdir(), 'prose-hostile-plugin-'));
  const pids = join(dir, 'pids');
  try {
    const r = spawnSync(
      'sh',
      [
        '-c',
        'ulimit -v 4000000; exec "$0" "$@"',
        process.execPath,
        '--import',
        'tsx',
        DRIVER,
        mode,
        pids,
        JSON.stringify(options),
      ],
      { cwd: REPO, timeout: 60_000, killSignal: 'SIGKILL', encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    assert.is(r.status, 0, `driver for ${mode}: status ${r.status} signal ${r.signal}: ${r.stderr.slice(-600)}`);
    const out = JSON.parse(r.stdout) as Drive;
    const started = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
    assert.ok(started.length >= 4, `${mode}: pids ${started}`);
    for (const pid of started) assert.ok(await goneWithin(pid, 5000), `${mode}: process ${pid} outlived the run`);
    assert.ok(out.maxRssMb < MAX_RSS_MB, `${mode}: peak memory ${Math.round(out.maxRssMb)} MB`);
    assert.ok(out.ms < 15_000, `${mode}: took ${out.ms} ms`);
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The first call's error, checked to be E_PLUGIN naming the plugin and `what`. */
function firstError(d: Drive, what: string | RegExp): string {
  const e = d.calls.find((c) => !('ok' in c)) as { code: string; message: string } | undefined;
  assert.ok(e, `no call failed: ${JSON.stringify(d.calls)}`);
  assert.is(e.code, 'E_PLUGIN', e.message);
  assert.match(e.message, 'hostile-plugin.js');
  assert.match(e.message, what);
  assert.ok(e.message.length < 8192, `the message is ${e.message.length} characters`);
  return e.message;
}

test('stdout flooded without a newline: E_PLUGIN at the line bound, memory bounded', async () => {
  const d = await drive('flood');
  firstError(d, 'plugin wrote more than 1048576 bytes on stdout without a newline');
  assert.not.ok('ok' in d.calls[0]!);
});

test('stdout flooded under the default line bound: still E_PLUGIN, memory bounded', async () => {
  firstError(await drive('flood', {}), /more than \d+ bytes on stdout without a newline/);
});

test('one line over the bound (3 MiB, bound 1 MiB): E_PLUGIN, the line is not kept', async () => {
  const message = firstError(
    await drive('huge-line'),
    'plugin wrote more than 1048576 bytes on stdout without a newline',
  );
  assert.match(message, 'received: "{\\"type\\":\\"result\\"');
});

test('a reply that is not UTF-8: E_PLUGIN saying so, not a value with U+FFFD in it', async () => {
  const message = firstError(await drive('bad-utf8'), 'not valid UTF-8');
  assert.match(message, 'at byte');
});

test('a reply that is not JSON: E_PLUGIN', async () => {
  firstError(await drive('bad-json'), 'not JSON');
});

test('a reply to a seq never asked: E_PLUGIN saying it was never asked', async () => {
  firstError(await drive('unasked-seq'), 'answered seq 9999, which was never asked');
});

test('a reply given twice: the first answers the call, the second breaks the session by name', async () => {
  const d = await drive('twice');
  assert.ok('ok' in d.calls[0]!, JSON.stringify(d.calls[0]));
  firstError(d, /answered seq \d+ a second time/);
});

test('stderr without end and no reply: the request times out, the stderr tail is quoted and bounded', async () => {
  const message = firstError(await drive('stderr-flood'), /no reply to call createRun \(seq \d+\) within 1500 ms/);
  assert.match(message, 'noise without end');
});

test('no reply ever: the request times out', async () => {
  firstError(await drive('silent'), /no reply to call createRun \(seq \d+\) within 1500 ms/);
});

test.run();
