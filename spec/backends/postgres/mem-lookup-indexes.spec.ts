import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newMemDb, openOnMem } from '../../../src/backends/postgres/postgres-mem-factory.ts';
import type { Backend } from '../../../src/core/backend.ts';
import type { Edition } from '../../../src/core/editions.ts';
import { tempEnv, VM } from './helpers.ts';

// Issue 35: pg-mem uses an index for `col = value` only when the index is on that one column, so on the composite keys
// alone a version lookup, a current-edition chain head and the foreign-key check of each published pointer read every
// row of their table, and a commit grew with the database. The pg-mem factory adds single-column indexes
// (mem-lookup-indexes.ts): a commit among many versions and receipts makes no sequential scan of those tables.

const WATCHED = new Set(['world_model_version', 'world_model_published', 'receipt']);

let serial = 0;
const commit = (b: Backend, run: string, node: string) =>
  b.call('commitWorldModel', { run, node, contract: 'c', files: { 'v.json': String(serial++) } }, VM);

for (const edition of ['v0', 'current'] as Edition[]) {
  test(`${edition}: a commit, a version read and a published read scan no world-model table`, async () => {
    const env = { ...tempEnv(), edition };
    const mem = newMemDb();
    const backend = await openOnMem(mem, env);
    try {
      const { run } = await backend.call('createRun', { program: 'session "a"\n' }, VM);
      for (let i = 0; i < 12; i++) await commit(backend, run, `other${i % 4}`);
      const first = await commit(backend, run, 'n');
      const scans: string[] = [];
      mem.on('seq-scan', (table) => {
        if (WATCHED.has(String(table))) scans.push(String(table));
      });
      const second = await commit(backend, run, 'n');
      assert.is(second.status, 'rendered');
      assert.is(second.prev, first.contentHash, 'the second commit chains to the first');
      const published = await backend.call('readPublished', { run, node: 'n' }, VM);
      const read = await backend.call('readVersion', { run, node: 'n', version: published.version! }, VM);
      assert.ok(read.files['v.json'] !== undefined, 'the published version reads back');
      assert.equal(scans, [], `sequential scans: ${scans.join(', ')}`);
    } finally {
      await backend.close();
      env.cleanup();
    }
  });
}

test.run();
