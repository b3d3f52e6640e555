import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TranscriptStore } from '../../../src/backends/in-context/transcript-store.ts';
import { DEFAULT_DECISIONS } from '../../../src/core/decisions.ts';
import { foldEvents } from '../../../src/core/execution-log.ts';
import { foldIncrementally } from '../../../src/core/fold-memo.ts';
import { assertOneListWhileAppending, statement } from '../../helpers/log-handed-out.ts';

// Issue 35: the store hands out each run's append-only log itself (no copy per read), so the shared fold memo keys
// on it; a transcript rewritten by another writer is read again into new logs, which are folded from the start.

const RUN = '20260115-143052-a7b3c9';
async function storeWithRun(conversation: { text: string }): Promise<TranscriptStore> {
  const store = new TranscriptStore(conversation, DEFAULT_DECISIONS, 'verbose');
  await store.createRun({ runId: RUN, program: 'p', status: 'running', startedAt: '2026-01-15T14:30:52Z' });
  return store;
}

test('readEvents hands out the run log itself: the same list while the run grows, no copy per read', async () =>
  assertOneListWhileAppending(await storeWithRun({ text: '' }), RUN));

test('another writer appending to the transcript extends the same log', async () => {
  const conversation = { text: '' };
  const store = await storeWithRun(conversation);
  await store.appendEvent(RUN, statement(1));
  const before = await store.readEvents(RUN);
  await new TranscriptStore(conversation, DEFAULT_DECISIONS, 'verbose').appendEvent(RUN, statement(2));
  const after = await store.readEvents(RUN);
  assert.is(after, before);
  assert.equal(foldIncrementally(after), foldEvents([statement(1), statement(2)]));
});

test('a transcript rewritten (not appended to) is read into a new log, folded from the start', async () => {
  const conversation = { text: '' };
  const store = await storeWithRun(conversation);
  await store.appendEvent(RUN, statement(1));
  const cut = conversation.text;
  await store.appendEvent(RUN, statement(2));
  const long = await store.readEvents(RUN);
  foldIncrementally(long);
  conversation.text = `${cut}${conversation.text.slice(cut.length).replace('s2', 's3').replace(/\b2\b/g, '3')}`;
  const rewritten = await store.readEvents(RUN);
  assert.is.not(rewritten, long, 'a new log');
  assert.equal([...rewritten], [statement(1), statement(3)]);
  assert.equal(foldIncrementally(rewritten), foldEvents([statement(1), statement(3)]));
});

test.run();
