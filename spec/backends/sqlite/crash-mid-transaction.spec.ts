import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sqliteFactory } from '../../../src/backends/sqlite/index.ts';
import { VM } from '../../../src/core/actor.ts';
import { cli, spawnFixture, tempEnv } from './helpers.ts';

test('a process SIGKILLed inside a transaction leaves the last committed state, and its lock is recovered', async () => {
  const env = tempEnv('crash');
  try {
    const b = await sqliteFactory.open(env);
    const { run } = await b.call('createRun', { program: 'let x = 1' }, VM);
    await b.close();

    const child = spawnFixture('crasher.ts', ['hang', env.projectDir, env.homeDir, run]);
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('in-transaction')) resolve();
      });
      child.on('close', (code) => reject(new Error(`child exited (${code}) before its transaction: ${out}`)));
    });
    const db = join(env.projectDir, '.prose', 'runs', run, 'state.db');
    assert.ok(existsSync(`${db}.lock`), 'the child holds the lock while in its transaction');
    child.kill('SIGKILL');
    await new Promise((r) => child.on('close', r));

    assert.is(cli([db, 'PRAGMA integrity_check']).stdout, 'ok\n');
    assert.is(cli([db, "SELECT name || '=' || value FROM bindings ORDER BY name"]).stdout, 'committed=kept\n');

    const again = await sqliteFactory.open(env);
    assert.is((await again.call('resolve', { run, name: 'committed' }, VM)).value, 'kept');
    // The dead child's lock file is stale: the next write breaks it instead of timing out.
    await again.call('bind', { run, name: 'after', kind: 'input', value: 'ok' }, VM);
    assert.equal((await again.call('listBindings', { run }, VM)).bindings.map((x) => x.name), ['after', 'committed']);
    await again.close();
    assert.equal(readdirSync(dirname(db)).filter((f) => f.startsWith('.tmp-') || f.includes('.lock')), [], 'no lock or temp file is left');
  } finally {
    env.done();
  }
});

test('SIGKILL at a random point of a stream of commits never loses an acknowledged one', async () => {
  const env = tempEnv('crash-loop');
  try {
    const b = await sqliteFactory.open(env);
    const { run } = await b.call('createRun', { program: 'loop' }, VM);
    await b.close();
    for (const delay of [150, 420]) {
      const child = spawnFixture('crasher.ts', ['loop', env.projectDir, env.homeDir, run]);
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      // Wait for the first commit, then kill at an arbitrary point of the following ones.
      await new Promise<void>((resolve) => child.stdout.on('data', () => resolve()));
      await new Promise((r) => setTimeout(r, delay));
      child.kill('SIGKILL');
      await new Promise((r) => child.on('close', r));
      const acked = out.split('\n').filter(Boolean).map(Number);
      assert.ok(acked.length > 0, 'the child acknowledged commits before it was killed');
      const db = join(env.projectDir, '.prose', 'runs', run, 'state.db');
      assert.is(cli([db, 'PRAGMA integrity_check']).stdout, 'ok\n');
      const again = await sqliteFactory.open(env);
      const names = new Set((await again.call('listBindings', { run }, VM)).bindings.map((x) => x.name));
      for (const i of acked) assert.ok(names.has(`n${i}`), `acknowledged n${i} survived`);
      await again.call('bind', { run, name: `after-${delay}`, kind: 'input', value: 'ok' }, VM);
      await again.close();
      assert.equal(readdirSync(dirname(db)).filter((f) => f.startsWith('.tmp-') || f.includes('.lock')), [], 'the next writer cleaned up after the dead one');
    }
  } finally {
    env.done();
  }
});

test.run();
