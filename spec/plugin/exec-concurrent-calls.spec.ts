import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../src/core/actor.ts';
import { execFactory } from '../../src/plugin/exec-factory.ts';
import { referenceCommand } from './fixtures/plugin-commands.ts';
import { tempEnv } from './fixtures/temp-env.ts';

test('calls in flight at once are each matched to their own reply by seq', async () => {
  const env = tempEnv('concurrent');
  const b = await (await execFactory(referenceCommand)).open(env);
  try {
    const { run } = await b.call('createRun', { program: 'p' }, VM);
    const names = Array.from({ length: 20 }, (_, i) => `b${i}`);
    const bound = await Promise.all(
      names.map((name) =>
        b.call('bind', { run, name, kind: 'let', value: `v-${name}` }, { role: 'subagent', binding: name }),
      ),
    );
    assert.equal(
      bound.map((r) => r.name),
      names,
    );
    const read = await Promise.all(names.map((name) => b.call('resolve', { run, name }, VM)));
    assert.equal(
      read.map((r) => r.value),
      names.map((n) => `v-${n}`),
    );
  } finally {
    await b.close();
    env.cleanup();
  }
});

test.run();
