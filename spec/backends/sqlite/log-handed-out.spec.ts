import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SqliteStore } from '../../../src/backends/sqlite/index.ts';
import { foldEvents } from '../../../src/core/execution-log.ts';
import { foldIncrementally } from '../../../src/core/fold-memo.ts';
import { assertOneListWhileAppending, statement } from '../../helpers/log-handed-out.ts';
import { cli, SQLITE3, tempEnv } from './helpers.ts';

// Issue 35: the store hands out its connection's append-only log of each run itself (no copy per read), so the
// shared fold memo keys on it; another connection's commit makes the store read the table into a new log, which is
// folded from the start.

const RUN = '20260115-143052-a7b3c9';

async function withStore(label: string, body: (store: SqliteStore, env: ReturnType<typeof tempEnv>) => Promise<void>) {
  const env = tempEnv(label);
  const store = new SqliteStore(env.projectDir, env.homeDir, env.decisions);
  try {
    await store.createRun({ runId: RUN, program: 'p', status: 'running', startedAt: '2026-01-15T14:30:52Z' });
    await body(store, env);
  } finally {
    await store.close();
    env.done();
  }
}

test('readEvents hands out the run log itself: the same list while only this store appends, no copy', () =>
  withStore('log-same', (store) => assertOneListWhileAppending(store, RUN)));

test("another connection's commit is read into a new log, folded from the start", () =>
  withStore('log-other', async (store, env) => {
    await store.appendEvent(RUN, statement(1));
    const before = await store.readEvents(RUN);
    foldIncrementally(before);
    const other = new SqliteStore(env.projectDir, env.homeDir, env.decisions);
    await other.appendEvent(RUN, statement(2, 'executing'));
    await other.close();
    const after = await store.readEvents(RUN);
    assert.is.not(after, before);
    assert.equal(foldIncrementally(after), foldEvents([statement(1), statement(2, 'executing')]));
  }));

test('an UPDATE in place by the sqlite3 CLI gives a new log with the changed row', () =>
  withStore('log-cli', async (store, env) => {
    if (!existsSync(SQLITE3)) return console.log(`  skipped: no sqlite3 CLI at ${SQLITE3}`);
    await store.appendEvent(RUN, statement(1));
    const before = await store.readEvents(RUN);
    const warm = foldIncrementally(before);
    const db = join(env.projectDir, '.prose', 'runs', RUN, 'state.db');
    const r = cli([db, "UPDATE execution SET status = 'executing' WHERE statement_index = 1"]);
    assert.is(r.status, 0, r.stderr);
    const after = await store.readEvents(RUN);
    assert.is.not(after, before);
    const state = foldIncrementally(after);
    assert.equal(state.position, { index: 1, text: 's1', status: 'executing' });
    assert.equal(warm.position, { index: 1, text: 's1', status: 'completed' }, 'the state handed out before stays');
  }));

test.run();
