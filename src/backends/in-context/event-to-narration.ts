import type { ExecutionEvent } from '../../core/model.ts';
import type { NarrationEvent } from '../../transcript/narration-event.ts';
import type { RunModel } from './transcript-model.ts';

type EventOf<K extends ExecutionEvent['type']> = Extract<ExecutionEvent, { type: K }>;

/** One narration per event kind, the inverse of narration-to-event.ts; the run supplies what a line repeats. */
const TO_NARRATION: { [K in ExecutionEvent['type']]: (r: RunModel, e: EventOf<K>) => NarrationEvent } = {
  statement: (_r, e) => ({
    kind: 'statement',
    index: e.index,
    text: e.text,
    status: e.status,
    ...(e.executionId !== undefined ? { executionId: e.executionId } : {}),
    ...(e.error !== undefined ? { error: e.error } : {}),
  }),
  'frame-enter': (_r, e) => ({
    kind: 'frame-enter',
    executionId: e.executionId,
    block: e.block,
    parent: e.parent,
    depth: e.depth,
    ...(e.args !== undefined ? { args: e.args } : {}),
  }),
  'frame-exit': (r, e) => ({
    kind: 'frame-exit',
    executionId: e.executionId,
    status: e.status,
    ...(r.frames.has(e.executionId) ? { block: r.frames.get(e.executionId)!.block } : {}),
  }),
  'parallel-start': (_r, e) => ({
    kind: 'parallel-start',
    id: e.id,
    strategy: e.strategy,
    branches: e.branches,
    ...(e.count !== undefined ? { count: e.count } : {}),
    ...(e.onFail !== undefined ? { onFail: e.onFail } : {}),
  }),
  branch: (_r, e) => ({ kind: 'branch', id: e.id, branch: e.branch, status: e.status }),
  'parallel-join': (_r, e) => ({ kind: 'parallel-join', id: e.id, branches: [] }),
  'loop-start': (_r, e) => ({
    kind: 'loop-start',
    id: e.id,
    ...(e.max !== undefined ? { max: e.max } : {}),
    ...(e.condition !== undefined ? { condition: e.condition } : {}),
  }),
  'loop-iteration': (r, e) => {
    const max = loopMax(r, e.id);
    return { kind: 'loop-iteration', id: e.id, iteration: e.iteration, ...(max !== undefined ? { max } : {}) };
  },
  'loop-exit': (_r, e) => ({ kind: 'loop-exit', id: e.id, reason: e.reason }),
  retry: (_r, e) => ({
    kind: 'retry',
    index: e.index,
    attempt: e.attempt,
    max: e.max,
    ...(e.error !== undefined ? { error: e.error } : {}),
  }),
  error: (_r, e) => ({ kind: 'error', index: e.index, message: e.message }),
  anon: (_r, e) => ({ kind: 'anon', name: e.name }),
};

/** The narration of an event; loop iterations repeat the loop's max, as the seed's "Iteration 2 of max 5". */
export function toNarration(r: RunModel, e: ExecutionEvent): NarrationEvent {
  return (TO_NARRATION[e.type] as (r: RunModel, e: ExecutionEvent) => NarrationEvent)(r, e);
}

function loopMax(r: RunModel, id: string): number | undefined {
  const events = r.log.events;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'loop-start' && e.id === id) return e.max;
  }
  return undefined;
}
