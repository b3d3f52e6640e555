import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { foldEvents, toResumeState } from '../../src/core/execution-log.ts';
import { foldIncrementally } from '../../src/core/fold-memo.ts';
import type { ExecutionEvent } from '../../src/core/model.ts';

const statement = (index: number, status: 'executing' | 'completed'): ExecutionEvent => ({
  type: 'statement',
  index,
  text: `step ${index}`,
  status,
});

/** A log as a store that keeps it hands it out: the same objects, appended to. */
function growingLog(n: number): ExecutionEvent[] {
  const log: ExecutionEvent[] = [{ type: 'frame-enter', executionId: 1, block: 'b', parent: null, depth: 1 }];
  for (let i = 1; i < n; i++) log.push(statement((i % 5) + 1, i % 3 ? 'completed' : 'executing'));
  return log;
}

test('folding a log as it grows gives the full fold at every length', () => {
  const log = growingLog(200);
  for (let n = 1; n <= log.length; n += 7)
    assert.equal(foldIncrementally(log.slice(0, n)), foldEvents(log.slice(0, n)));
});

test('a log whose middle event was replaced (same length, same ends) is folded again from the start', () => {
  const log = growingLog(50);
  foldIncrementally(log);
  const changed = log.slice();
  changed[20] = statement(9, 'executing');
  changed.push(statement(2, 'completed'));
  assert.equal(foldIncrementally(changed), foldEvents(changed));
});

test('a shorter log than the one folded before (a rewritten store) is folded from the start', () => {
  const log = growingLog(40);
  foldIncrementally(log);
  assert.equal(foldIncrementally(log.slice(0, 10)), foldEvents(log.slice(0, 10)));
});

test('a log folded before is answered with the same state, and a longer one never changes it', () => {
  const log = growingLog(30);
  const first = foldIncrementally(log);
  const before = structuredClone(first);
  assert.is(foldIncrementally(log.slice()), first, 'the same events: the state handed out before, no copy');
  log.push(statement(1, 'executing'));
  const longer = foldIncrementally(log);
  assert.is.not(longer, first);
  assert.equal(first, before, 'a state handed out is never changed by a later fold');
  assert.equal(longer, foldEvents(log));
});

test("resume's parts are the caller's own: changing them leaves the shared state as it was", () => {
  const log = growingLog(30);
  log.push({ type: 'error', index: 3, message: 'boom' });
  const state = foldIncrementally(log);
  const resume = toResumeState('r', 'running', state, []);
  resume.errors.push({ index: 0, message: 'added by the caller' });
  assert.equal(foldIncrementally(log), foldEvents(log));
});

test.run();
