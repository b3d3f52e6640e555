import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sqliteFactory } from '../../../src/backends/sqlite/index.ts';
import { VM } from '../../../src/core/actor.ts';
import { agent, cli, runFixture, tempEnv } from './helpers.ts';

const PROCS = 8;
const EACH = 200;
const SEGMENTS = 25;

test(`${PROCS} processes writing ${EACH} bindings (and ${SEGMENTS} segments) each to one run lose nothing`, async () => {
  const env = tempEnv('writers');
  try {
    const b = await sqliteFactory.open(env);
    const { run } = await b.call('createRun', { program: 'parallel' }, VM);
    await b.close();

    const results = await Promise.all(
      Array.from({ length: PROCS }, (_, p) =>
        runFixture('writer.ts', [env.projectDir, env.homeDir, run, `w${p}`, String(EACH), String(SEGMENTS)]),
      ),
    );
    for (const r of results) assert.is(r.stdout, 'done\n', `a writer failed: ${r.stderr}`);

    const again = await sqliteFactory.open(env);
    const names = new Set((await again.call('listBindings', { run }, VM)).bindings.map((x) => x.name));
    assert.is(names.size, PROCS * EACH);
    for (let p = 0; p < PROCS; p++)
      for (let i = 0; i < EACH; i++) assert.ok(names.has(`w${p}-${i}`), `w${p}-${i} is present`);
    // Segment numbers were allocated under the lock: 1..200 with no gap and no duplicate.
    const segs = (await again.call('listSegments', { agent: 'shared', scope: 'project' }, agent('shared'))).segments;
    assert.equal(
      segs.map((s) => s.number),
      Array.from({ length: PROCS * SEGMENTS }, (_, i) => i + 1),
    );
    await again.close();
    // Pages were written in place by eight processes: the files must still be sound to the real sqlite3.
    assert.is(cli([join(env.projectDir, '.prose', 'runs', run, 'state.db'), 'PRAGMA integrity_check']).stdout, 'ok\n');
    assert.is(cli([join(env.projectDir, '.prose', 'agents.db'), 'PRAGMA integrity_check']).stdout, 'ok\n');
  } finally {
    env.done();
  }
});

test.run();
