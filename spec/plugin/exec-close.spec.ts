import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../src/core/actor.ts';
import { execFactory } from '../../src/plugin/exec-factory.ts';
import { PluginError } from '../../src/plugin/plugin-error.ts';
import { misbehavingCommand } from './fixtures/plugin-commands.ts';
import { tempEnv } from './fixtures/temp-env.ts';

async function closeError(mode: string): Promise<PluginError> {
  const env = tempEnv(`close-${mode}`);
  try {
    const f = await execFactory(misbehavingCommand(mode, 'close'), { timeoutMs: 400 });
    const b = await f.open(env);
    await b.call('createRun', { program: 'p' }, VM);
    const t0 = Date.now();
    const err = await b.close().then(
      () => assert.unreachable('close should fail'),
      (e: unknown) => e,
    );
    assert.ok(Date.now() - t0 < 3000, 'close must not hang');
    assert.instance(err, PluginError);
    // The next open is a new process that works (its close misbehaves again, as told).
    const again = await f.open(env);
    const { run } = await again.call('createRun', { program: 'q' }, VM);
    assert.is((await again.call('getRun', { run }, VM)).program, 'q');
    await again.close().catch(() => undefined);
    return err as PluginError;
  } finally {
    env.cleanup();
  }
}

test('a plugin that never answers close: E_PLUGIN after the timeout, and the process is ended', async () => {
  const err = await closeError('hang');
  assert.match(err.message, 'no reply to close');
});

test('a plugin that crashes on close: E_PLUGIN with the exit code', async () => {
  const err = await closeError('crash');
  assert.is(err.evidence.exitCode, 3);
});

test.run();
