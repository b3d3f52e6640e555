import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../src/core/actor.ts';
import { ProseError } from '../../src/core/errors.ts';
import { execFactory } from '../../src/plugin/exec-factory.ts';
import { misbehavingCommand } from './fixtures/plugin-commands.ts';
import { tempEnv } from './fixtures/temp-env.ts';

test('an error reply is the contract answer: its code, and the session goes on', async () => {
  const env = tempEnv('contract');
  const b = await (await execFactory(misbehavingCommand())).open(env);
  try {
    const err = await b.call('getRun', { run: 'nope' }, VM).catch((e: unknown) => e);
    assert.instance(err, ProseError);
    assert.is((err as ProseError).code, 'E_NOT_FOUND');
    const { run } = await b.call('createRun', { program: 'p' }, VM);
    assert.is((await b.call('getRun', { run }, VM)).program, 'p');
  } finally {
    await b.close();
    env.cleanup();
  }
});

test('non-object args answer E_INVALID_ARGUMENT without reaching the plugin', async () => {
  const env = tempEnv('args');
  const b = await (await execFactory(misbehavingCommand())).open(env);
  try {
    const err = await b.call('getRun', null as never, VM).catch((e: unknown) => e);
    assert.is((err as ProseError).code, 'E_INVALID_ARGUMENT');
  } finally {
    await b.close();
    env.cleanup();
  }
});

test.run();
