import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sqliteFactory } from '../../../src/backends/sqlite/index.ts';
import { VM } from '../../../src/core/actor.ts';
import { agent, cli, subagent, tempEnv } from './helpers.ts';

test('every database the backend writes passes the real sqlite3 integrity_check and reads back through it', async () => {
  const env = tempEnv('cli-reads');
  try {
    const b = await sqliteFactory.open(env);
    const { run } = await b.call('createRun', { program: 'let research = session: researcher' }, VM);
    await b.call(
      'bind',
      { run, name: 'research', kind: 'let', value: 'AI safety research', source: 'let research = session: researcher' },
      subagent('research'),
    );
    const { executionId } = await b.call('enterFrame', { run, block: 'process' }, VM);
    await b.call(
      'bind',
      { run, name: 'research', kind: 'let', value: 'scoped', executionId },
      subagent('research', executionId),
    );
    await b.call('writeMemory', { agent: 'captain', scope: 'project', memory: 'remember' }, agent('captain'));
    await b.call('writeMemory', { agent: 'captain', scope: 'user', memory: 'mine' }, agent('captain'));
    await b.close();

    const runDb = join(env.projectDir, '.prose', 'runs', run, 'state.db');
    for (const db of [runDb, join(env.projectDir, '.prose', 'agents.db'), join(env.homeDir, '.prose', 'agents.db')]) {
      assert.is(cli([db, 'PRAGMA integrity_check']).stdout, 'ok\n', db);
      assert.is(cli([db, 'PRAGMA user_version']).stdout, '1\n', `${db} carries our schema version`);
    }
    assert.is(
      cli([
        runDb,
        "SELECT kind, value, source_statement FROM bindings WHERE name = 'research' AND execution_id IS NULL",
      ]).stdout,
      'let|AI safety research|let research = session: researcher\n',
    );
    assert.is(
      cli([runDb, `SELECT value FROM bindings WHERE name = 'research' AND execution_id = ${executionId}`]).stdout,
      'scoped\n',
    );
    assert.is(
      cli([join(env.projectDir, '.prose', 'agents.db'), "SELECT scope, memory FROM agents WHERE name = 'captain'"])
        .stdout,
      'project|remember\n',
    );
    assert.is(cli([runDb, 'SELECT id, status, state_mode FROM run']).stdout, `${run}|running|sqlite\n`);
  } finally {
    env.done();
  }
});

test.run();
