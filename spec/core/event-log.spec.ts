import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EventLog, logOf } from '../../src/core/event-log.ts';
import { foldEvents } from '../../src/core/execution-log.ts';
import { foldIncrementally } from '../../src/core/fold-memo.ts';
import type { ExecutionEvent } from '../../src/core/model.ts';

// The fold of an append-only log (issue 35): keyed by the log object and its length, so a read after an append
// folds the new events alone, a new log object is folded from the start, and a state handed out never changes.

const statement = (index: number, status: 'executing' | 'completed'): ExecutionEvent => ({
  type: 'statement',
  index,
  text: `step ${index}`,
  status,
});

/** An event that counts how often a fold reads it (any property), to see which events a fold looked at. */
function counted(event: ExecutionEvent): { event: ExecutionEvent; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(event, {
    get(target, key, receiver) {
      reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { event: proxy, reads: () => reads };
}

function logOfSize(n: number, first?: ExecutionEvent): EventLog {
  const log = new EventLog();
  log.append(first ?? { type: 'frame-enter', executionId: 1, block: 'b', parent: null, depth: 1 });
  for (let i = 1; i < n; i++) log.append(statement((i % 5) + 1, i % 3 ? 'completed' : 'executing'));
  return log;
}

test('the list a log hands out is its own: the same object after appends, and logOf finds the log by it', () => {
  const log = logOfSize(3);
  const list = log.events;
  log.append(statement(1, 'completed'));
  assert.is(log.events, list);
  assert.is(list.length, 4);
  assert.is(logOf(list), log);
  assert.is(logOf(list.slice()), undefined, 'a copy is a plain list');
});

test('a log folded as it grows gives the full fold at every length', () => {
  const log = new EventLog();
  const full = logOfSize(200).events;
  for (const [i, e] of full.entries()) {
    log.append(e);
    if (i % 7 === 0) assert.equal(foldIncrementally(log.events), foldEvents(full.slice(0, i + 1)));
  }
});

test('appended events are folded once: a read after one append looks at no earlier event', () => {
  const log = new EventLog();
  const events = Array.from({ length: 300 }, (_, i) => counted(statement((i % 5) + 1, 'completed')));
  for (const c of events) log.append(c.event);
  foldIncrementally(log.events);
  const before = events.map((c) => c.reads());
  const added = counted(statement(2, 'executing'));
  log.append(added.event);
  const state = foldIncrementally(log.events);
  assert.equal(
    events.map((c) => c.reads()),
    before,
    'the events folded before were not read again',
  );
  assert.ok(added.reads() > 0, 'the new event was folded');
  const reads = added.reads();
  assert.is(foldIncrementally(log.events), state, 'a read with nothing appended is the state handed out then');
  assert.is(added.reads(), reads, 'and folds nothing');
  assert.equal(state, foldEvents(log.events));
});

test('a log replaced by a new object is folded from the start, even with the same first events', () => {
  const old = logOfSize(50);
  foldIncrementally(old.events);
  const replaced = new EventLog();
  for (const [i, e] of old.events.entries()) replaced.append(i === 20 ? statement(9, 'executing') : e);
  replaced.append(statement(2, 'completed'));
  const state = foldIncrementally(replaced.events);
  assert.equal(state, foldEvents(replaced.events));
  assert.not.equal(state, foldEvents([...old.events, statement(2, 'completed')]), 'not the old prefix with one more');
});

test('a state handed out is never changed after: appends are folded onto a copy', () => {
  const log = logOfSize(30);
  log.append({ type: 'error', index: 3, message: 'boom' });
  const first = foldIncrementally(log.events);
  const snapshot = structuredClone(first);
  log.append(statement(4, 'executing'));
  log.append({ type: 'error', index: 4, message: 'again' });
  const longer = foldIncrementally(log.events);
  assert.is.not(longer, first);
  assert.equal(first, snapshot, 'the state handed out before is as it was');
  assert.equal(longer, foldEvents(log.events));
});

test('a state handed out stays as it was when later events change its frames, parallels, loops and retries', () => {
  const log = new EventLog();
  for (const e of [
    { type: 'frame-enter', executionId: 1, block: 'b', parent: null, depth: 1 },
    { type: 'parallel-start', id: 'p', strategy: 'all', branches: ['x', 'y'] },
    { type: 'loop-start', id: 'l', max: 3 },
    { type: 'retry', index: 2, attempt: 1, max: 3 },
  ] satisfies ExecutionEvent[])
    log.append(e);
  const first = foldIncrementally(log.events);
  const snapshot = structuredClone(first);
  for (const e of [
    { type: 'frame-exit', executionId: 1, status: 'completed' },
    { type: 'branch', id: 'p', branch: 'x', status: 'completed' },
    { type: 'parallel-join', id: 'p' },
    { type: 'loop-iteration', id: 'l', iteration: 2 },
    { type: 'loop-exit', id: 'l', reason: 'max' },
    { type: 'retry', index: 2, attempt: 2, max: 3 },
    { type: 'error', index: 2, message: 'boom' },
  ] satisfies ExecutionEvent[])
    log.append(e);
  const later = foldIncrementally(log.events);
  assert.equal(first, snapshot, 'no entry of the state handed out was changed in place');
  assert.equal(later, foldEvents(log.events));
});

test('an empty log folds to the empty state, and its first append is folded', () => {
  const log = new EventLog();
  assert.equal(foldIncrementally(log.events), foldEvents([]));
  log.append(statement(1, 'executing'));
  assert.equal(foldIncrementally(log.events), foldEvents(log.events));
});

test.run();
