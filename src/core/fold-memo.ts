import { logOf, type EventLog } from './event-log.ts';
import { applyEvent, copyState, emptyState, type ExecutionState, type StateView } from './execution-log.ts';
import type { ExecutionEvent } from './model.ts';

/** A fold of a log's first `length` events. */
interface Memo {
  length: number;
  state: StateView;
}

/**
 * The last fold of each append-only log (event-log.ts), keyed by the log: its first `length` events are the same
 * for as long as it lives, so the memo is good for any longer read of it without looking at a single event.
 */
const logMemos = new WeakMap<EventLog, Memo>();

/**
 * The last fold of each plain list, keyed by its first event object: a store that builds a new list per read but
 * hands out the same event objects (the filesystem and postgres stores) starts from the prefix it folded before,
 * checked one pointer at a time; a store that builds new objects per read simply never hits.
 */
const listMemos = new WeakMap<ExecutionEvent, Memo & { events: readonly ExecutionEvent[] }>();

/**
 * `foldEvents(events)`, folding only the events past those folded before. For a list an append-only log handed
 * out (`EventLog.events`) the memo is the log's own: no compare and no copy of the events per call. For any other
 * list, the longest prefix folded before that is the same objects in the same order (a log rebuilt or reordered is
 * folded again from the start). Events are values no reader changes. The state is shared: a log folded before is
 * answered with the very state handed out then, and a longer one is folded onto a copy, so a state handed out is
 * never changed afterwards and a read (resolve, resume) costs no copy of a state that grows with the run (issue #35).
 * Readers get it read-only.
 */
export function foldIncrementally(events: readonly ExecutionEvent[]): StateView {
  const log = logOf(events);
  if (log !== undefined) {
    // The list is the log's own, so its length is the log's now and the memo's prefix is a prefix of it.
    const memo = logMemos.get(log);
    if (memo?.length === events.length) return memo.state;
    const state = foldFrom(memo, events);
    logMemos.set(log, { length: events.length, state });
    return state;
  }
  const first = events[0];
  if (first === undefined) return emptyState();
  const memo = listMemos.get(first);
  const hit = memo !== undefined && memo.length <= events.length && samePrefix(memo.events, events);
  if (hit && memo.length === events.length) return memo.state;
  const state = foldFrom(hit ? memo : undefined, events);
  listMemos.set(first, { events: events.slice(), length: events.length, state });
  return state;
}

/** The fold of `events` from the memo's state (on a copy, so the state handed out stays as it was) or from empty. */
function foldFrom(memo: Memo | undefined, events: readonly ExecutionEvent[]): ExecutionState {
  const state = memo ? copyState(memo.state) : emptyState();
  for (let i = memo ? memo.length : 0; i < events.length; i++) applyEvent(state, events[i]!);
  return state;
}

function samePrefix(prefix: readonly ExecutionEvent[], events: readonly ExecutionEvent[]): boolean {
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== events[i]) return false;
  return true;
}
