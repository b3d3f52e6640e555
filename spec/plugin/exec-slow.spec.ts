import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../src/core/actor.ts';
import { execFactory } from '../../src/plugin/exec-factory.ts';
import { misbehavingCommand } from './fixtures/plugin-commands.ts';
import { tempEnv } from './fixtures/temp-env.ts';

test('a slow reply within the timeout is a normal answer', async () => {
  const env = tempEnv('slow');
  const f = await execFactory(misbehavingCommand('slow', 'createRun', 'MISBEHAVE_MS=300'), { timeoutMs: 2000 });
  const b = await f.open(env);
  try {
    const t0 = Date.now();
    const { run } = await b.call('createRun', { program: 'p' }, VM);
    assert.ok(Date.now() - t0 >= 250, 'the plugin was told to be slow');
    assert.is((await b.call('getRun', { run }, VM)).program, 'p');
  } finally {
    await b.close();
    env.cleanup();
  }
});

test.run();
