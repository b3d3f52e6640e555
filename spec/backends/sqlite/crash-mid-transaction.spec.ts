import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { queryRows, SqliteFile } from '../../../src/sqlite/index.ts';
import { sqliteFactoryFor } from '../../../src/backends/sqlite/index.ts';
import { VM } from '../../../src/core/actor.ts';
import { cli, enginesHere, spawnFixture, tempEnv } from './helpers.ts';

/** A rollback journal's header starts with these 8 bytes once SQLite has synced it (a hot journal, if left behind). */
const JOURNAL_MAGIC = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);

for (const engine of enginesHere()) {
  const sqliteFactory = sqliteFactoryFor(engine);
  test(`${engine}: a process SIGKILLed with pages of a transaction written in place leaves a hot journal that we and the CLI roll back`, async () => {
    const env = tempEnv(`crash-${engine}`);
    try {
      const b = await sqliteFactory.open(env);
      const { run } = await b.call('createRun', { program: 'let x = 1' }, VM);
      await b.close();

      const child = spawnFixture('crasher.ts', ['hang', env.projectDir, env.homeDir, run, engine]);
      await new Promise<void>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          if (out.includes('in-transaction')) resolve();
        });
        child.on('close', (code) => reject(new Error(`child exited (${code}) before its transaction: ${out}`)));
      });
      const db = join(env.projectDir, '.prose', 'runs', run, 'state.db');
      // The native engine takes no lock file: its lock is SQLite's own (the CLI's rollback below shows it is gone).
      if (engine !== 'native') assert.ok(existsSync(`${db}.lock`), 'the child holds the lock while in its transaction');
      child.kill('SIGKILL');
      await new Promise((r) => child.on('close', r));

      assert.ok(
        readFileSync(`${db}-journal`).subarray(0, 8).equals(JOURNAL_MAGIC),
        'the dead writer left a hot journal',
      );
      // A copy of the torn pair for our own rollback; the original for the CLI's.
      const copy = join(env.dir, 'copy');
      mkdirSync(copy);
      copyFileSync(db, join(copy, 'state.db'));
      copyFileSync(`${db}-journal`, join(copy, 'state.db-journal'));
      // Without its journal the file shows the dead transaction's pages: the rollback below really has work to do.
      copyFileSync(db, join(copy, 'torn.db'));
      const torn = cli([join(copy, 'torn.db'), "SELECT count(*) FROM bindings WHERE value LIKE 'new%'"]);
      assert.ok(torn.status !== 0 || torn.stdout !== '0\n', `pages were overwritten in place (${torn.stdout.trim()})`);

      const committed =
        "SELECT name || '=' || value FROM bindings WHERE name NOT LIKE 'bulk%' UNION ALL SELECT count(*) FROM bindings WHERE value LIKE 'old%'";
      assert.is(cli([db, 'PRAGMA integrity_check']).stdout, 'ok\n');
      assert.is(cli([db, committed]).stdout, 'committed=kept\n100\n');

      const ours = await SqliteFile.open(join(copy, 'state.db'), { engine });
      assert.equal(await ours.read((d) => queryRows(d, committed).map((r) => Object.values(r)[0])), [
        'committed=kept',
        100,
      ]);
      ours.close();
      assert.is(
        cli([join(copy, 'state.db'), 'PRAGMA integrity_check']).stdout,
        'ok\n',
        'our rollback left a sound file',
      );
      const journal = join(copy, 'state.db-journal');
      assert.ok(
        !existsSync(journal) || !readFileSync(journal).subarray(0, 8).equals(JOURNAL_MAGIC),
        'the journal is gone or no longer hot',
      );

      const again = await sqliteFactory.open(env);
      assert.is((await again.call('resolve', { run, name: 'committed' }, VM)).value, 'kept');
      // The dead child's lock file is stale: the next write breaks it instead of timing out.
      await again.call('bind', { run, name: 'after', kind: 'input', value: 'ok' }, VM);
      assert.equal(
        (await again.call('listBindings', { run }, VM)).bindings
          .map((x) => x.name)
          .filter((n) => !n.startsWith('bulk')),
        ['after', 'committed'],
      );
      await again.close();
      assert.equal(
        readdirSync(dirname(db)).filter((f) => f.startsWith('.tmp-') || f.includes('.lock')),
        [],
        'no lock or temp file is left',
      );
    } finally {
      env.done();
    }
  });

  test(`${engine}: SIGKILL at a random point of a stream of commits never loses an acknowledged one`, async () => {
    const env = tempEnv(`crash-loop-${engine}`);
    try {
      const b = await sqliteFactory.open(env);
      const { run } = await b.call('createRun', { program: 'loop' }, VM);
      await b.close();
      for (const delay of [150, 420]) {
        const child = spawnFixture('crasher.ts', ['loop', env.projectDir, env.homeDir, run, engine]);
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
        assert.equal(
          readdirSync(dirname(db)).filter((f) => f.startsWith('.tmp-') || f.includes('.lock')),
          [],
          'the next writer cleaned up after the dead one',
        );
      }
    } finally {
      env.done();
    }
  });
}

test.run();
