import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { onEachEngine } from './engines.ts';
import { pgView, tempEnv, VM } from './helpers.ts';

// A multi-statement write (createImport: the nested run row, then the imports row) that fails in its second
// statement must leave no trace of the first, on pg-mem and on a real server alike.
onEachEngine('a failure in the middle of a multi-statement write leaves no partial state', async (factory, label) => {
  {
    const env = tempEnv();
    try {
      const b = await factory.open(env);
      const { run } = await b.call('createRun', { program: 'use "h/s"' }, VM);
      const view = pgView(b);
      // Take the imports key the write will need, pointing at some other run, so its 2nd statement collides.
      const db = await factory.openDb(env);
      await db.query(`INSERT INTO openprose.imports (alias, run_id, import_run_id) VALUES ($1, $2, $2)`, ['h--s', run]);
      await db.end();
      const err = await b.call('createImport', { run, handle: 'h', slug: 's', program: 'nested' }, VM).catch((e) => e);
      assert.is(err.code, 'E_CONFLICT', `${label}: the colliding write answers E_CONFLICT`);
      const runs = await view.query(`SELECT id FROM openprose.run ORDER BY id`);
      assert.equal(
        runs.map((r) => r.id),
        [run],
        `${label}: the nested run row of the failed write is gone`,
      );
      const imports = await view.query(`SELECT alias, import_run_id FROM openprose.imports`);
      assert.equal(imports, [{ alias: 'h--s', import_run_id: run }], `${label}: the imports table is as before`);
      await b.close();
      await factory.dispose!(env);
    } finally {
      env.cleanup();
    }
  }
});

test.run();
