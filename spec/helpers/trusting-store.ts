import type { ExecutionEvent } from '../../src/core/model.ts';
import type { StateStore } from '../../src/core/store.ts';

// Issue 35's cache-honesty specs: the store a cache that never checks the storage makes, to show they catch one.

/** A statement event as the cache specs log it. */
export const statement = (index: number, status: 'executing' | 'completed'): ExecutionEvent => ({
  type: 'statement',
  index,
  text: `step ${index}`,
  status,
});

// A mixin's base must take any arguments (TypeScript's rule for mixins).
type StoreClass = new (...args: any[]) => StateStore;

/** `Base`, keeping the first log it read of each run and adding only its own appends: a cache that does not check. */
export function trusting<B extends StoreClass>(Base: B) {
  return class Trusting extends Base {
    private readonly kept = new Map<string, ExecutionEvent[]>();
    override async readEvents(run: string): Promise<ExecutionEvent[]> {
      let events = this.kept.get(run);
      if (!events) this.kept.set(run, (events = await super.readEvents(run)));
      return [...events];
    }
    override async appendEventAtomically(run: string, make: (events: readonly ExecutionEvent[]) => ExecutionEvent) {
      const event = make(await this.readEvents(run));
      await super.appendEvent(run, event);
      this.kept.get(run)!.push(event);
      return event;
    }
  };
}
