import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../src/core/actor.ts';
import { execFactory } from '../../src/plugin/exec-factory.ts';
import { referenceCommand } from './fixtures/plugin-commands.ts';
import { tempEnv } from './fixtures/temp-env.ts';

test('a multi-megabyte value with multi-byte characters crosses the pipe both ways intact', async () => {
  const env = tempEnv('large');
  const b = await (await execFactory(referenceCommand)).open(env);
  try {
    const { run } = await b.call('createRun', { program: 'p' }, VM);
    const value = 'é☃𝄞 line\n'.repeat(300_000);
    const bound = await b.call('bind', { run, name: 'big', kind: 'let', value }, { role: 'subagent', binding: 'big' });
    assert.is(bound.attached, true);
    const back = await b.call('resolve', { run, name: 'big' }, VM);
    assert.ok(back.value === value, `read back ${back.value.length} UTF-16 units, wrote ${value.length}`);
  } finally {
    await b.close();
    env.cleanup();
  }
});

test.run();
