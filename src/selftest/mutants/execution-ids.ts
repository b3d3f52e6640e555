import type { ExecutionEvent } from '../../core/model.ts';
import { mutant, type Mutant } from '../mutant.ts';

/**
 * A backend that follows sqlite.md literally: an invocation's execution_id is the id of its row in the `execution`
 * table, which also holds every statement and construct row. Ids stay unique per run (in-context.md) but are not
 * 1, 2, 3. Only the case labelled with decision `execution-id` (the per-run frame counter) may kill it.
 */
export const EXECUTION_ID_MUTANTS: Mutant[] = [
  mutant(
    'execution-id-table-rows',
    "execution ids are row ids of the run's execution log (100 + 10 x events so far), not a counter of frames",
    {
      store: (base) => ({
        async appendEventAtomically(
          run: string,
          make: (events: readonly ExecutionEvent[]) => ExecutionEvent,
        ): Promise<ExecutionEvent> {
          return base.appendEventAtomically(run, (events) => {
            const e = make(events);
            return e.type === 'frame-enter' ? { ...e, executionId: 100 + 10 * events.length } : e;
          });
        },
      }),
    },
  ),
];
