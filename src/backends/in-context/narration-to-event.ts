import type { ExecutionEvent } from '../../core/model.ts';
import type { TranscriptEvent } from '../../transcript/narration-event.ts';

type NarrationOf<K extends TranscriptEvent['kind']> = Extract<TranscriptEvent, { kind: K }>;

/**
 * One mapping per narration kind that records execution state; a kind missing here (notes, reads, try, the run and
 * store kinds) is not an engine event. A line without the id its event needs (a bare `[Branch]`) records nothing.
 */
const TO_EVENT: { [K in ExecutionEvent['type']]: (e: NarrationOf<K>) => ExecutionEvent | undefined } = {
  statement: (e) =>
    e.index === undefined
      ? undefined
      : {
          type: 'statement',
          index: e.index,
          text: e.text,
          status: e.status,
          ...(e.executionId !== undefined ? { executionId: e.executionId } : {}),
          ...(e.error !== undefined ? { error: e.error } : {}),
        },
  'frame-enter': (e) => ({
    type: 'frame-enter',
    executionId: e.executionId,
    block: e.block,
    parent: e.parent ?? null,
    depth: e.depth ?? 1,
    ...(e.args !== undefined ? { args: e.args } : {}),
  }),
  'frame-exit': (e) => ({ type: 'frame-exit', executionId: e.executionId, status: e.status }),
  'parallel-start': (e) => ({
    type: 'parallel-start',
    id: e.id!,
    strategy: e.strategy ?? 'all',
    branches: e.branches,
    ...(e.count !== undefined ? { count: e.count } : {}),
    ...(e.onFail !== undefined ? { onFail: e.onFail } : {}),
  }),
  branch: (e) => (e.id === undefined ? undefined : { type: 'branch', id: e.id, branch: e.branch, status: e.status }),
  'parallel-join': (e) => (e.id === undefined ? undefined : { type: 'parallel-join', id: e.id }),
  'loop-start': (e) => ({
    type: 'loop-start',
    id: e.id!,
    ...(e.max !== undefined ? { max: e.max } : {}),
    ...(e.condition !== undefined ? { condition: e.condition } : {}),
  }),
  'loop-iteration': (e) => ({ type: 'loop-iteration', id: e.id!, iteration: e.iteration }),
  'loop-exit': (e) => (e.id === undefined ? undefined : { type: 'loop-exit', id: e.id, reason: e.reason }),
  retry: (e) =>
    e.index === undefined
      ? undefined
      : {
          type: 'retry',
          index: e.index,
          attempt: e.attempt,
          max: e.max,
          ...(e.error !== undefined ? { error: e.error } : {}),
        },
  error: (e) => (e.index === undefined ? undefined : { type: 'error', index: e.index, message: e.message }),
  anon: (e) => ({ type: 'anon', name: e.name }),
};

/** The engine's event for a narration event, or undefined for narration that records no state (notes, reads, try). */
export function toExecutionEvent(e: TranscriptEvent): ExecutionEvent | undefined {
  if (!Object.hasOwn(TO_EVENT, e.kind)) return undefined;
  return (TO_EVENT[e.kind as ExecutionEvent['type']] as (e: TranscriptEvent) => ExecutionEvent | undefined)(e);
}
