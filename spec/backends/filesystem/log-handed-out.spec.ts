import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FsStore } from '../../../src/backends/filesystem/fs-store.ts';
import { foldEvents } from '../../../src/core/execution-log.ts';
import { foldIncrementally } from '../../../src/core/fold-memo.ts';
import { assertOneListWhileAppending, statement } from '../../helpers/log-handed-out.ts';
import { tempEnv } from '../../helpers/temp-env.ts';

// Issue 35: the v0 store hands out the event log of its cached state.md itself (no copy per read), so the shared
// fold memo keys on it and resolve folds nothing again; another writer's state.md is read into a new log.

const RUN = '20260115-143052-a7b3c9';

async function withStore(body: (store: FsStore, env: ReturnType<typeof tempEnv>) => Promise<void>) {
  const env = tempEnv();
  const store = new FsStore(env.projectDir, env.homeDir, env.decisions);
  try {
    await store.createRun({ runId: RUN, program: 'p', status: 'running', startedAt: '2026-01-15T14:30:52Z' });
    await body(store, env);
  } finally {
    env.cleanup();
  }
}

test('readEvents hands out the cached log itself: the same list while only this store appends', () =>
  withStore((store) => assertOneListWhileAppending(store, RUN)));

test("another store's append is read into a new log, folded from the start", () =>
  withStore(async (store, env) => {
    await store.appendEvent(RUN, statement(1));
    const before = await store.readEvents(RUN);
    foldIncrementally(before);
    await new FsStore(env.projectDir, env.homeDir, env.decisions).appendEvent(RUN, statement(2, 'executing'));
    const after = await store.readEvents(RUN);
    assert.is.not(after, before);
    assert.equal([...before], [statement(1)], 'the list handed out before is not changed by the other writer');
    assert.equal(foldIncrementally(after), foldEvents([statement(1), statement(2, 'executing')]));
  }));

test('state.md edited in place by a VM gives a new log with the edited event', () =>
  withStore(async (store, env) => {
    await store.appendEvent(RUN, statement(1));
    const warm = foldIncrementally(await store.readEvents(RUN));
    const file = join(env.projectDir, '.prose', 'runs', RUN, 'state.md');
    const text = readFileSync(file, 'utf8');
    assert.ok(text.includes('"status":"completed"'), 'the event line as the store writes it');
    writeFileSync(file, text.replace('"status":"completed"', '"status":"executing"'));
    const state = foldIncrementally(await store.readEvents(RUN));
    assert.equal(state.position, { index: 1, text: 's1', status: 'executing' });
    assert.equal(warm.position, { index: 1, text: 's1', status: 'completed' }, 'the state handed out before stays');
  }));

test.run();
