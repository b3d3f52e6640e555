import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sqliteFactory } from '../../../src/backends/sqlite/index.ts';
import { VM } from '../../../src/core/actor.ts';
import { ProseError } from '../../../src/core/errors.ts';
import { agent, tempEnv } from './helpers.ts';

test("storage().query reads committed rows of any of the backend's databases and keeps nothing it changes", async () => {
  const env = tempEnv('view');
  try {
    const b = await sqliteFactory.open(env);
    const { run } = await b.call('createRun', { program: 'p' }, VM);
    await b.call('bind', { run, name: 'x', kind: 'input', value: 'v' }, VM);
    await b.call('writeMemory', { agent: 'captain', scope: 'user', memory: 'mine' }, agent('captain'));
    const view = b.storage!();
    assert.is(view.kind, 'sqlite');
    if (view.kind !== 'sqlite') return;
    const db = `.prose/runs/${run}/state.db`;
    assert.equal(await view.query(db, 'SELECT name, kind, value FROM bindings WHERE name = ?', ['x']), [
      { name: 'x', kind: 'input', value: 'v' },
    ]);
    assert.equal(await view.query('~/.prose/agents.db', 'SELECT memory FROM agents'), [{ memory: 'mine' }]);
    await view.query(db, 'DELETE FROM bindings');
    assert.equal(await view.query(db, 'SELECT count(*) AS n FROM bindings'), [{ n: 1 }], 'the DELETE was not kept');
    assert.is((await b.call('resolve', { run, name: 'x' }, VM)).value, 'v');
    try {
      await view.query('.prose/agents.db', 'SELECT 1');
      assert.unreachable('no project agents.db was ever written');
    } catch (err) {
      assert.is((err as ProseError).code, 'E_NOT_FOUND');
    }
    await b.close();
  } finally {
    env.done();
  }
});

test.run();
