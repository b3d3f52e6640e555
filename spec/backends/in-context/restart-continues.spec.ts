import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../../src/core/actor.ts';
import { freshFactory, runScript, snapshot, transcriptOf } from './_helpers.ts';

// close + open on the same storage continues the same conversation: everything answers the same, counters go on.
test('a restart answers the same and continues ids and anonymous names', async () => {
  const { factory, env } = freshFactory();
  let b = await factory.open(env);
  const run = await runScript(b);
  const before = await snapshot(b, run);
  const text = await transcriptOf(b);
  await b.close();
  b = await factory.open(env);
  assert.equal(await snapshot(b, run), before);
  assert.is(await transcriptOf(b), text);
  assert.is((await b.call('enterFrame', { run, block: 'again' }, VM)).executionId, 3);
  assert.is((await b.call('allocateAnon', { run }, VM)).name, 'anon_002');
});

test('a closed instance refuses calls; another storage starts empty; dispose forgets the conversation', async () => {
  const { factory, env } = freshFactory();
  const b = await factory.open(env);
  const run = await runScript(b);
  await b.close();
  try {
    await b.call('getRun', { run }, VM);
    assert.unreachable('closed');
  } catch (err) {
    assert.is((err as { code?: string }).code, 'E_STATE');
  }
  const other = await factory.open({ ...env, storageKey: `${env.storageKey}-other` });
  assert.is(await transcriptOf(other), '');
  await factory.dispose!(env);
  assert.is(await transcriptOf(await factory.open(env)), '');
});

test.run();
