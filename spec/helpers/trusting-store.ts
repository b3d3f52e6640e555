import type { ExecutionEvent } from '../../src/core/model.ts';
import type { StateStore } from '../../src/core/store.ts';
import { uncheckedEventCache } from '../../src/selftest/mutants/caching.ts';

// Issue 35's cache-honesty specs: a store whose cache never checks the storage, to show they catch one.

/** A statement event as the cache specs log it. */
export const statement = (index: number, status: 'executing' | 'completed'): ExecutionEvent => ({
  type: 'statement',
  index,
  text: `step ${index}`,
  status,
});

// A mixin's base must take any arguments (TypeScript's rule for mixins).
type StoreClass = new (...args: any[]) => StateStore;

/** `Base` with the event methods of the events-cached-unchecked mutant (src/selftest/mutants/caching.ts). */
export function trusting<B extends StoreClass>(Base: B) {
  return class Trusting extends Base {
    private readonly unchecked = uncheckedEventCache({
      readEvents: (run) => super.readEvents(run),
      appendEvent: (run, event) => super.appendEvent(run, event),
    });
    override readEvents(run: string): Promise<readonly ExecutionEvent[]> {
      return this.unchecked.readEvents(run);
    }
    override appendEvent(run: string, event: ExecutionEvent): Promise<void> {
      return this.unchecked.appendEvent(run, event);
    }
    override appendEventAtomically(run: string, make: (events: readonly ExecutionEvent[]) => ExecutionEvent) {
      return this.unchecked.appendEventAtomically(run, make);
    }
  };
}
