import { applyEvent, emptyState, type ExecutionState, type StateView } from './execution-log.ts';
import type { ExecutionEvent } from './model.ts';

/**
 * The last fold of each log, keyed by the log's first event object. A store that keeps its log between calls
 * (the sqlite and in-context stores) hands out the same event objects each time, so the next fold starts from the
 * state of the prefix it already folded; a store that builds new objects per read simply never hits.
 */
const memos = new WeakMap<ExecutionEvent, { events: readonly ExecutionEvent[]; state: StateView }>();

/**
 * `foldEvents(events)`, folding only the events past the longest prefix folded before: the same objects in the same
 * order (checked one by one, a pointer compare each, so a log rebuilt or reordered is folded again from the start).
 * Events are values no reader changes. The state is shared: a log folded before is answered with the very state
 * handed out then, and a longer one is folded onto a copy, so a state handed out is never changed afterwards and
 * a read (resolve, resume) costs no copy of a state that grows with the run (issue #35). Readers get it read-only.
 */
export function foldIncrementally(events: readonly ExecutionEvent[]): StateView {
  const first = events[0];
  if (first === undefined) return emptyState();
  const memo = memos.get(first);
  const hit = memo !== undefined && memo.events.length <= events.length && samePrefix(memo.events, events);
  if (hit && memo.events.length === events.length) return memo.state;
  const state: ExecutionState = hit ? structuredClone(memo.state as ExecutionState) : emptyState();
  for (let i = hit ? memo.events.length : 0; i < events.length; i++) applyEvent(state, events[i]!);
  memos.set(first, { events: events.slice(), state });
  return state;
}

function samePrefix(prefix: readonly ExecutionEvent[], events: readonly ExecutionEvent[]): boolean {
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== events[i]) return false;
  return true;
}
