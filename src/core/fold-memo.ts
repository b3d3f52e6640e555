import { applyEvent, emptyState, type ExecutionState } from './execution-log.ts';
import type { ExecutionEvent } from './model.ts';

/**
 * The last fold of each log, keyed by the log's first event object. A store that keeps its log between calls
 * (the sqlite and in-context stores) hands out the same event objects each time, so the next fold starts from the
 * state of the prefix it already folded; a store that builds new objects per read simply never hits.
 */
const memos = new WeakMap<ExecutionEvent, { events: readonly ExecutionEvent[]; state: ExecutionState }>();

/**
 * `foldEvents(events)`, folding only the events past the longest prefix folded before: the same objects in the same
 * order (checked one by one, a pointer compare each, so a log rebuilt or reordered is folded again from the start).
 * Events are values no reader changes; the state returned is the caller's own (the memo keeps a copy).
 */
export function foldIncrementally(events: readonly ExecutionEvent[]): ExecutionState {
  const first = events[0];
  if (first === undefined) return emptyState();
  const memo = memos.get(first);
  let state = emptyState();
  let from = 0;
  if (memo && memo.events.length <= events.length && samePrefix(memo.events, events)) {
    state = structuredClone(memo.state);
    from = memo.events.length;
  }
  for (let i = from; i < events.length; i++) applyEvent(state, events[i]!);
  memos.set(first, { events: events.slice(), state: structuredClone(state) });
  return state;
}

function samePrefix(prefix: readonly ExecutionEvent[], events: readonly ExecutionEvent[]): boolean {
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== events[i]) return false;
  return true;
}
