import { ProseError } from './errors.ts';
import type {
  ExecutionEvent,
  ExecutionId,
  FrameState,
  LoopState,
  ParallelState,
  ResumeState,
  StackFrame,
  StatementStatus,
} from './model.ts';

/** The execution state a log of events adds up to. Folding is pure, so every backend rebuilds the same state. */
export interface ExecutionState {
  frames: Map<ExecutionId, FrameState>;
  parallels: Record<string, ParallelState>;
  loops: Record<string, LoopState>;
  retries: Record<string, { attempt: number; max: number }>;
  errors: { index: number; message: string }[];
  position: { index: number; text: string; status: StatementStatus } | null;
  /** Latest event per statement index, in the order they were last touched (for the resume position). */
  statements: Map<number, { index: number; text: string; status: StatementStatus }>;
  nextExecutionId: ExecutionId;
  anonCount: number;
}

/** A value no holder may change: the fold memo hands one folded state to every caller of the same log. */
export type Frozen<T> =
  T extends Map<infer K, infer V>
    ? ReadonlyMap<K, Frozen<V>>
    : T extends (infer U)[]
      ? readonly Frozen<U>[]
      : T extends object
        ? { readonly [P in keyof T]: Frozen<T[P]> }
        : T;

/** An execution state as readers get it (fold-memo.ts): shared, never changed after it is handed out. */
export type StateView = Frozen<ExecutionState>;

export function emptyState(): ExecutionState {
  return {
    frames: new Map(),
    parallels: {},
    loops: {},
    retries: {},
    errors: [],
    position: null,
    statements: new Map(),
    nextExecutionId: 1,
    anonCount: 0,
  };
}

/**
 * A state to fold more events onto, leaving `state` as it is: its containers copied, their entries shared (applyEvent
 * replaces an entry it changes). A copy costs a pointer per entry, not a deep copy of each (issue #35).
 */
export function copyState(state: StateView): ExecutionState {
  const s = state as ExecutionState;
  return {
    ...s,
    frames: new Map(s.frames),
    parallels: { ...s.parallels },
    loops: { ...s.loops },
    retries: { ...s.retries },
    errors: s.errors.slice(),
    statements: new Map(s.statements),
  };
}

export function foldEvents(events: readonly ExecutionEvent[]): ExecutionState {
  const state = emptyState();
  for (const e of events) applyEvent(state, e);
  return state;
}

const fail = (code: 'E_STATE' | 'E_LOOP_MAX' | 'E_RETRY_MAX' | 'E_CONFLICT', message: string): never => {
  throw new ProseError(code, message, { location: { field: 'event' } });
};

type EventOf<T extends ExecutionEvent['type']> = Extract<ExecutionEvent, { type: T }>;
type ParallelEvent = EventOf<'parallel-start' | 'branch' | 'parallel-join'>;
type LoopEvent = EventOf<'loop-start' | 'loop-iteration' | 'loop-exit'>;

/** Checks that `event` may follow the state (the rules in docs/decisions.md `execution-events`). */
export function checkEvent(state: StateView, event: ExecutionEvent): void {
  switch (event.type) {
    case 'statement':
    case 'error':
    case 'anon':
    case 'frame-enter':
      return;
    case 'frame-exit': {
      const f = state.frames.get(event.executionId);
      if (!f) fail('E_STATE', `no frame with execution_id ${event.executionId}`);
      if (f!.status !== 'executing') fail('E_STATE', `frame ${event.executionId} already exited`);
      return;
    }
    case 'parallel-start':
    case 'branch':
    case 'parallel-join':
      return checkParallelEvent(state, event);
    case 'loop-start':
    case 'loop-iteration':
    case 'loop-exit':
      return checkLoopEvent(state, event);
    case 'retry': {
      const prev = state.retries[String(event.index)]?.attempt ?? 0;
      if (event.attempt > event.max) fail('E_RETRY_MAX', `retry attempt ${event.attempt} is past max ${event.max}`);
      if (event.attempt !== prev + 1)
        fail('E_STATE', `statement ${event.index} is at retry ${prev}; the next is ${prev + 1}, not ${event.attempt}`);
      return;
    }
    default:
      return assertNever(event);
  }
}

function checkParallelEvent(state: StateView, event: ParallelEvent): void {
  switch (event.type) {
    case 'parallel-start':
      if (state.parallels[event.id]) fail('E_CONFLICT', `parallel ${event.id} already started`);
      if (event.branches.length === 0) fail('E_STATE', `parallel ${event.id} has no branches`);
      if (new Set(event.branches).size !== event.branches.length)
        fail('E_STATE', `parallel ${event.id} names a branch twice`);
      if (event.count !== undefined && event.count > event.branches.length)
        fail('E_STATE', `count ${event.count} is more than the ${event.branches.length} branches`);
      if (event.count !== undefined && event.count < 1) fail('E_STATE', `count must be at least 1, got ${event.count}`);
      return;
    case 'branch': {
      const p = parallelOf(state, event.id);
      if (p.joined) fail('E_STATE', `parallel ${event.id} already joined`);
      if (!(event.branch in p.branches)) fail('E_STATE', `parallel ${event.id} has no branch ${event.branch}`);
      const cur = p.branches[event.branch];
      if (cur === 'completed' || cur === 'failed')
        fail('E_STATE', `branch ${event.branch} of ${event.id} already ${cur}`);
      return;
    }
    case 'parallel-join': {
      const p = parallelOf(state, event.id);
      if (p.joined) fail('E_STATE', `parallel ${event.id} already joined`);
      const pending = joinBlockers(p);
      if (pending.length) fail('E_STATE', `parallel ${event.id} cannot join yet: waiting for ${pending.join(', ')}`);
      return;
    }
    default:
      return assertNever(event);
  }
}

function checkLoopEvent(state: StateView, event: LoopEvent): void {
  switch (event.type) {
    case 'loop-start':
      if (state.loops[event.id] && !state.loops[event.id]!.exited)
        fail('E_CONFLICT', `loop ${event.id} already running`);
      if (event.max !== undefined && event.max < 1) fail('E_STATE', `loop max must be at least 1, got ${event.max}`);
      return;
    case 'loop-iteration': {
      const l = loopOf(state, event.id);
      if (l.exited) fail('E_STATE', `loop ${event.id} already exited`);
      if (l.max !== undefined && event.iteration > l.max)
        fail('E_LOOP_MAX', `iteration ${event.iteration} of loop ${event.id} is past max ${l.max}`);
      if (event.iteration !== l.iteration + 1)
        fail(
          'E_STATE',
          `loop ${event.id} is at iteration ${l.iteration}; the next is ${l.iteration + 1}, not ${event.iteration}`,
        );
      return;
    }
    case 'loop-exit': {
      const l = loopOf(state, event.id);
      if (l.exited) fail('E_STATE', `loop ${event.id} already exited`);
      return;
    }
    default:
      return assertNever(event);
  }
}

/** Branches a join still waits for, by strategy: all waits for every branch; first and any for `count` successes. */
export function joinBlockers(p: Frozen<ParallelState>): string[] {
  const names = Object.keys(p.branches);
  const open = names.filter((b) => p.branches[b] === 'pending' || p.branches[b] === 'executing');
  if (p.strategy === 'all') return open;
  const need = p.count ?? 1;
  const done = names.filter((b) => p.branches[b] === 'completed').length;
  return done >= need || open.length === 0 ? [] : open;
}

/**
 * Adds one event to the state. An entry it changes (a frame, a parallel, a loop) is replaced, never changed in
 * place, so a `copyState` copy shares its entries with the state it was copied from and neither sees the other's
 * later events.
 */
export function applyEvent(state: ExecutionState, event: ExecutionEvent): void {
  switch (event.type) {
    case 'statement': {
      const s = { index: event.index, text: event.text, status: event.status };
      state.statements.delete(event.index);
      state.statements.set(event.index, s);
      state.position = resumePosition(state.statements) ?? s;
      return;
    }
    case 'frame-enter':
      state.frames.set(event.executionId, {
        executionId: event.executionId,
        block: event.block,
        parent: event.parent,
        depth: event.depth,
        status: 'executing',
      });
      state.nextExecutionId = Math.max(state.nextExecutionId, event.executionId + 1);
      return;
    case 'frame-exit': {
      const f = state.frames.get(event.executionId);
      if (f) state.frames.set(event.executionId, { ...f, status: event.status });
      return;
    }
    case 'parallel-start':
    case 'branch':
    case 'parallel-join':
      return applyParallelEvent(state, event);
    case 'loop-start':
    case 'loop-iteration':
    case 'loop-exit':
      return applyLoopEvent(state, event);
    case 'retry':
      state.retries[String(event.index)] = { attempt: event.attempt, max: event.max };
      return;
    case 'error':
      state.errors.push({ index: event.index, message: event.message });
      return;
    case 'anon':
      state.anonCount += 1;
      return;
    default:
      assertNever(event);
  }
}

function applyParallelEvent(state: ExecutionState, event: ParallelEvent): void {
  switch (event.type) {
    case 'parallel-start':
      state.parallels[event.id] = {
        strategy: event.strategy,
        branches: Object.fromEntries(event.branches.map((b) => [b, 'pending'])),
        joined: false,
        ...(event.count !== undefined ? { count: event.count } : {}),
        ...(event.onFail ? { onFail: event.onFail } : {}),
      };
      return;
    case 'branch': {
      const p = state.parallels[event.id];
      if (p) state.parallels[event.id] = { ...p, branches: { ...p.branches, [event.branch]: event.status } };
      return;
    }
    case 'parallel-join': {
      const p = state.parallels[event.id];
      if (p) state.parallels[event.id] = { ...p, joined: true };
      return;
    }
    default:
      assertNever(event);
  }
}

function applyLoopEvent(state: ExecutionState, event: LoopEvent): void {
  switch (event.type) {
    case 'loop-start':
      state.loops[event.id] = { iteration: 0, exited: false, ...(event.max !== undefined ? { max: event.max } : {}) };
      return;
    case 'loop-iteration': {
      const l = state.loops[event.id];
      if (l) state.loops[event.id] = { ...l, iteration: event.iteration };
      return;
    }
    case 'loop-exit': {
      const l = state.loops[event.id];
      if (l) state.loops[event.id] = { ...l, exited: true, exitReason: event.reason };
      return;
    }
    default:
      assertNever(event);
  }
}

/**
 * Where a resume picks up: the most recently started statement that is still executing, else the statement
 * recorded last (filesystem.md marks `# <-- EXECUTING`; a completed statement after it does not move it).
 */
function resumePosition(statements: ExecutionState['statements']): ExecutionState['position'] {
  let executing: ExecutionState['position'] = null;
  for (const s of statements.values()) if (s.status === 'executing') executing = s;
  return executing;
}

/** Frames to look in for a name, innermost first, ending with `null` (root). */
export function scopeChain(state: StateView, executionId: ExecutionId | null): (ExecutionId | null)[] {
  const chain: (ExecutionId | null)[] = [];
  let cur = executionId;
  const seen = new Set<ExecutionId>();
  while (cur !== null) {
    const f = state.frames.get(cur);
    if (!f)
      throw new ProseError('E_STATE', `no frame with execution_id ${cur}`, { location: { field: 'executionId' } });
    if (seen.has(cur)) throw new ProseError('E_CORRUPT', `frame ${cur} is its own ancestor`);
    seen.add(cur);
    chain.push(cur);
    cur = f.parent;
  }
  chain.push(null);
  return chain;
}

/** The open frames, innermost first: the first is `executing`, the frames waiting on it `waiting` (the seeds' Call Stack). */
export function callStack(state: StateView): StackFrame[] {
  return [...state.frames.values()]
    .filter((f) => f.status === 'executing')
    .sort((a, b) => b.depth - a.depth || b.executionId - a.executionId)
    .map((f, i) => ({ ...f, status: i === 0 ? 'executing' : 'waiting' }));
}

/** The resume answer: the caller's own copy of the state's parts (the state itself is shared, fold-memo.ts). */
export function toResumeState(
  run: string,
  status: ResumeState['status'],
  state: StateView,
  bindings: ResumeState['bindings'],
): ResumeState {
  const own = structuredClone({
    position: state.position,
    parallels: state.parallels,
    loops: state.loops,
    retries: state.retries,
    errors: state.errors,
  }) as Pick<ExecutionState, 'position' | 'parallels' | 'loops' | 'retries' | 'errors'>;
  return {
    run,
    status,
    position: own.position,
    bindings,
    callStack: callStack(state),
    parallels: own.parallels,
    loops: own.loops,
    retries: own.retries,
    errors: own.errors,
    nextExecutionId: state.nextExecutionId,
    anonCount: state.anonCount,
  };
}

function parallelOf(state: StateView, id: string): Frozen<ParallelState> {
  const p = state.parallels[id];
  if (!p) fail('E_STATE', `parallel ${id} was not started`);
  return p!;
}

function loopOf(state: StateView, id: string): Frozen<LoopState> {
  const l = state.loops[id];
  if (!l) fail('E_STATE', `loop ${id} was not started`);
  return l!;
}

function assertNever(x: never): never {
  throw new ProseError('E_INVALID_ARGUMENT', `unknown event ${JSON.stringify(x)}`);
}
