import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFactory } from '../../src/plugin/exec-factory.ts';
import { PluginError } from '../../src/plugin/plugin-error.ts';
import { misbehavingCommand } from './fixtures/plugin-commands.ts';
import { tempEnv } from './fixtures/temp-env.ts';

test('a plugin declaring other capabilities in a later process is E_PLUGIN naming both declarations', async () => {
  const env = tempEnv('flip');
  try {
    const f = await execFactory(
      misbehavingCommand('flip-caps', '', `MISBEHAVE_FILE=${JSON.stringify(join(env.storageKey, 'started'))}`),
    );
    assert.equal([...f.capabilities], ['durable']);
    const err = await f.open(env).catch((e: unknown) => e);
    assert.instance(err, PluginError);
    assert.match(
      (err as PluginError).message,
      'declared capabilities "durable,imports" on open, but "durable" at the first handshake',
    );
  } finally {
    env.cleanup();
  }
});

test('a directory plugin declaring layout:directory exposes the env directories as its storage view', async () => {
  const env = tempEnv('view');
  try {
    const f = await execFactory(
      misbehavingCommand('', '', 'MISBEHAVE_KIND=directory MISBEHAVE_CAPS=durable,layout:directory'),
    );
    const b = await f.open(env);
    assert.equal(b.storage?.(), { kind: 'directory', projectDir: env.projectDir, homeDir: env.homeDir });
    await b.close();
    const other = await (await execFactory(misbehavingCommand())).open(env);
    assert.is(other.storage, undefined);
    await other.close();
  } finally {
    env.cleanup();
  }
});

test.run();
