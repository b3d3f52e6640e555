import * as assert from 'uvu/assert';
import { logOf } from '../../src/core/event-log.ts';
import type { ExecutionEvent, RunRef } from '../../src/core/model.ts';
import type { StateStore } from '../../src/core/store.ts';

// Issue 35: a store that keeps its log between calls hands out the log's own list, so the fold memo keys on it.

export const statement = (index: number, status: 'executing' | 'completed' = 'completed'): ExecutionEvent => ({
  type: 'statement',
  index,
  text: `s${index}`,
  status,
});

/** Two appends of the store's own to `run` (which has no events yet): every read hands out the one list. */
export async function assertOneListWhileAppending(store: StateStore, run: RunRef): Promise<void> {
  await store.appendEvent(run, statement(1));
  const first = await store.readEvents(run);
  assert.is(await store.readEvents(run), first, 'two reads, one list');
  await store.appendEvent(run, statement(2));
  const second = await store.readEvents(run);
  assert.is(second, first, 'an append of ours extends the same log');
  assert.equal([...second], [statement(1), statement(2)]);
  assert.ok(logOf(second), 'an append-only log, which the fold memo keys on');
}
