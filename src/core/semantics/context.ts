import type { Capability } from '../capabilities.ts';
import type { Decisions } from '../decisions.ts';
import { ProseError } from '../errors.ts';
import type { StateView } from '../execution-log.ts';
import { foldIncrementally } from '../fold-memo.ts';
import type { ExecutionEvent, ExecutionId, RunRecord, RunRef } from '../model.ts';
import type { StateStore } from '../store.ts';
import type { Handlers } from './handler-types.ts';

export interface SemanticsOptions {
  store: StateStore;
  /** Handlers for operations the core does not implement itself (the world-model ops come from src/canon). */
  extraHandlers?: Partial<Handlers>;
  decisions: Decisions;
  capabilities: readonly Capability[];
  now?: () => Date;
  random?: () => number;
}

/** What every handler group works over: the store, the pinned decisions, the declared capabilities and the clock. */
export interface SemanticsContext {
  store: StateStore;
  decisions: Decisions;
  caps: ReadonlySet<Capability>;
  now: () => Date;
  random: (() => number) | undefined;
  /** The run's record; E_NOT_FOUND if there is none. */
  runOf(run: RunRef): Promise<RunRecord>;
  /** The run's execution state, folded from its event log. */
  stateOf(run: RunRef): Promise<StateView>;
  /** Builds the next VM event from the current state and appends it, atomically where the store can. */
  appendFrom(run: RunRef, make: (state: StateView) => ExecutionEvent): Promise<ExecutionEvent>;
}

export function semanticsContext(opts: SemanticsOptions): SemanticsContext {
  const { store, decisions } = opts;
  const runOf = async (run: RunRef) => {
    const rec = await store.readRun(run);
    if (!rec) throw new ProseError('E_NOT_FOUND', `no run ${JSON.stringify(run)}`, { location: { field: 'run' } });
    return rec;
  };
  const stateOf = async (run: RunRef): Promise<StateView> => foldIncrementally(await store.readEvents(run));
  const appendFrom = async (run: RunRef, make: (state: StateView) => ExecutionEvent): Promise<ExecutionEvent> => {
    if (store.appendEventAtomically)
      return store.appendEventAtomically(run, (events) => make(foldIncrementally(events)));
    const event = make(await stateOf(run));
    await store.appendEvent(run, event);
    return event;
  };
  return {
    store,
    decisions,
    caps: new Set(opts.capabilities),
    now: opts.now ?? (() => new Date()),
    random: opts.random,
    runOf,
    stateOf,
    appendFrom,
  };
}

export function frameMustExist(state: StateView, id: ExecutionId | null | undefined): void {
  if (id != null && !state.frames.has(id)) {
    throw new ProseError('E_STATE', `no frame with execution_id ${id}`, {
      location: { field: 'executionId' },
      hint: 'enterFrame allocates execution ids',
    });
  }
}
