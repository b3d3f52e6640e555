import type { ExecutionEvent } from './model.ts';

/** Which append-only log each handed-out list belongs to (the list is the log's own, held by nobody else to write). */
const owners = new WeakMap<readonly ExecutionEvent[], EventLog>();

/**
 * A run's execution log that only grows: `append` is its one mutation, so the first n events of it stay the same n
 * events for as long as the object lives. A store that keeps its log between calls holds it in one of these; a store
 * that must replace its log (another writer changed the storage) makes a new one. So the fold memo (fold-memo.ts)
 * knows "same prefix" from the object and a length, with no compare and no copy per call (issue #35).
 */
export class EventLog {
  readonly #events: ExecutionEvent[] = [];

  constructor() {
    owners.set(this.#events, this);
  }

  append(event: ExecutionEvent): void {
    this.#events.push(event);
  }

  get length(): number {
    return this.#events.length;
  }

  /**
   * The events so far, read-only and without a copy: the log's own list, so a holder sees later appends at its end
   * (what it read before never changes). A caller that wants a snapshot copies it.
   */
  get events(): readonly ExecutionEvent[] {
    return this.#events;
  }
}

/** The append-only log whose list `events` is, if it is one (`EventLog.events`); a plain array has none. */
export function logOf(events: readonly ExecutionEvent[]): EventLog | undefined {
  return owners.get(events);
}
