import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sqliteFactory } from '../../../src/backends/sqlite/index.ts';
import { VM } from '../../../src/core/actor.ts';
import { agent, cli, subagent, tempEnv } from './helpers.ts';

const NASTY = "'); DROP TABLE bindings; --";

test('names and values that look like SQL are stored as data, never run', async () => {
  const env = tempEnv('inject');
  try {
    const b = await sqliteFactory.open(env);
    const { run } = await b.call('createRun', { program: NASTY }, VM);
    const value = `${NASTY}\n"; DELETE FROM run; --\u0000 and a NUL`;
    await b.call('bind', { run, name: NASTY, kind: 'let', value, source: NASTY }, subagent(NASTY));
    await b.call('writeMemory', { agent: 'captain', scope: 'execution', run, memory: NASTY }, agent('captain'));
    await b.call(
      'appendSegment',
      { agent: 'captain', scope: 'execution', run, prompt: NASTY, summary: NASTY },
      agent('captain'),
    );
    await b.call('recordEvent', { run, event: { type: 'statement', index: 1, text: NASTY, status: 'executing' } }, VM);
    const { executionId } = await b.call('enterFrame', { run, block: 'blk', args: { [NASTY]: NASTY } }, VM);
    await b.close();

    const again = await sqliteFactory.open(env);
    const got = await again.call('resolve', { run, name: NASTY }, VM);
    assert.is(got.value, value);
    assert.is((await again.call('getRun', { run }, VM)).program, NASTY);
    assert.is((await again.call('readMemory', { agent: 'captain', scope: 'execution', run }, VM)).memory, NASTY);
    assert.is(
      (await again.call('listSegments', { agent: 'captain', scope: 'execution', run }, VM)).segments[0]!.prompt,
      NASTY,
    );
    const resume = await again.call('resume', { run }, VM);
    assert.is(resume.position!.text, NASTY);
    assert.is(resume.callStack[0]!.executionId, executionId);
    await again.close();

    const db = join(env.projectDir, '.prose', 'runs', run, 'state.db');
    assert.is(
      cli([db, "SELECT count(*) FROM sqlite_master WHERE name IN ('bindings', 'run')"]).stdout,
      '2\n',
      'both tables still exist',
    );
    assert.is(cli([db, 'SELECT name FROM bindings']).stdout, `${NASTY}\n`);
  } finally {
    env.done();
  }
});

test.run();
