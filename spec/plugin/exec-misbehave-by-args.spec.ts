import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../src/core/actor.ts';
import { execFactory } from '../../src/plugin/exec-factory.ts';
import { PluginError } from '../../src/plugin/plugin-error.ts';
import { misbehavingCommand } from './fixtures/plugin-commands.ts';
import { tempEnv } from './fixtures/temp-env.ts';

test('a case can tell the plugin to misbehave through its args ("misbehave:crash")', async () => {
  const env = tempEnv('by-args');
  const f = await execFactory(misbehavingCommand());
  const b = await f.open(env);
  try {
    const ok = await b.call('createRun', { program: 'fine' }, VM);
    assert.is((await b.call('getRun', { run: ok.run }, VM)).program, 'fine');
    const err = await b.call('createRun', { program: 'misbehave:crash' }, VM).catch((e: unknown) => e);
    assert.instance(err, PluginError);
    assert.match((err as PluginError).evidence.stderr, 'crashing on createRun');
  } finally {
    await b.close();
    env.cleanup();
  }
});

test.run();
