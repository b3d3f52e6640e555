import type { ExecutionEvent, RunRef } from '../../core/model.ts';
import type { StateStore } from '../../core/store.ts';
import { mutant, type Mutant } from '../mutant.ts';

type EventStore = Required<Pick<StateStore, 'readEvents' | 'appendEvent' | 'appendEventAtomically'>>;

/**
 * The event methods of a store that keeps the first log it read of each run and adds only its own appends: a
 * cache never checked against the storage, so another process's events stay unseen (issue 35).
 */
export function uncheckedEventCache(base: Pick<StateStore, 'readEvents' | 'appendEvent'>): EventStore {
  const kept = new Map<RunRef, ExecutionEvent[]>();
  const readEvents = async (run: RunRef): Promise<ExecutionEvent[]> => {
    let events = kept.get(run);
    // A copy: the base may hand out its append-only log's own list, which only the base appends to.
    if (!events) kept.set(run, (events = [...(await base.readEvents(run))]));
    return [...events];
  };
  const appendEvent = async (run: RunRef, event: ExecutionEvent): Promise<void> => {
    await base.appendEvent(run, event);
    kept.get(run)?.push(event);
  };
  return {
    readEvents,
    appendEvent,
    appendEventAtomically: async (run, make) => {
      const event = make(await readEvents(run));
      await appendEvent(run, event);
      return event;
    },
  };
}

/**
 * Caches that survive between calls of one backend instance. The concurrency cases' worker processes each hold one
 * instance while the others write between its calls (concurrency/anon-names-unique kills it); the cache specs of the
 * sqlite and postgres stores (spec/backends/{sqlite,postgres}/cache-sees-other-writers) run the same code beside them.
 */
export const CACHE_MUTANTS: Mutant[] = [
  mutant('events-cached-unchecked', "each run's event log is kept from its first read and never checked again", {
    store: (base) => uncheckedEventCache(base),
  }),
];
