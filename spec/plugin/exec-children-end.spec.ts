import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../src/core/actor.ts';
import { ProseError } from '../../src/core/errors.ts';
import { ProtocolSession } from '../../src/plugin/protocol-session.ts';
import { forkingCommand } from './fixtures/plugin-commands.ts';
import { goneWithin, pidFrom } from './fixtures/process-alive.ts';

// Each plugin here leaves `sleep 300` running in its process group; whatever ends the plugin must end it too.
const POSIX = process.platform !== 'win32';

async function withPidFile(label: string, body: (pidFile: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `prose-plugin-children-${label}-`));
  try {
    await body(join(dir, 'child.pid'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const createRun = (s: ProtocolSession) =>
  s.request('call', { op: 'createRun', args: { program: 'p' }, actor: VM }, 'call createRun').catch((e: unknown) => e);

test('a child the plugin left running ends when the plugin is closed', async () => {
  if (!POSIX) return;
  await withPidFile('close', async (pidFile) => {
    const { session } = await ProtocolSession.start(forkingCommand(pidFile));
    const pid = await pidFrom(pidFile);
    await session.close();
    assert.ok(await goneWithin(pid), `sleep ${pid} still runs after close`);
  });
});

test('a child ends when the plugin crashes mid-call', async () => {
  if (!POSIX) return;
  await withPidFile('crash', async (pidFile) => {
    const { session } = await ProtocolSession.start(forkingCommand(pidFile, 'crash', 'createRun'));
    const pid = await pidFrom(pidFile);
    const err = await createRun(session);
    assert.instance(err, ProseError);
    assert.is((err as ProseError).code, 'E_PLUGIN');
    await session.close();
    assert.ok(await goneWithin(pid), `sleep ${pid} still runs after the crash`);
  });
});

test('a child ends when a call times out', async () => {
  if (!POSIX) return;
  await withPidFile('timeout', async (pidFile) => {
    const { session } = await ProtocolSession.start(forkingCommand(pidFile, 'hang', 'createRun'), { timeoutMs: 200 });
    const pid = await pidFrom(pidFile);
    const err = await createRun(session);
    assert.match((err as ProseError).message, 'within 200 ms');
    assert.ok(await goneWithin(pid), `sleep ${pid} still runs after the timeout`);
    await session.close();
  });
});

const starter = fileURLToPath(new URL('./fixtures/start-then-exit.ts', import.meta.url));

for (const how of ['exit', 'SIGTERM', 'SIGINT']) {
  test(`a plugin's group ends when prose-state ends (${how})`, async () => {
    if (!POSIX) return;
    await withPidFile(how, async (pidFile) => {
      const child = spawn(process.execPath, ['--import', 'tsx', starter, forkingCommand(pidFile), how], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      await new Promise((r) => child.on('close', r));
      assert.is(out, 'started\n');
      const pid = await pidFrom(pidFile);
      assert.ok(await goneWithin(pid), `sleep ${pid} still runs after its harness ended by ${how}`);
    });
  });
}

test.run();
