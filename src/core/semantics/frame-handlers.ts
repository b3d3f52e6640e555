import { ProseError } from '../errors.ts';
import { checkEvent, type StateView } from '../execution-log.ts';
import type { ExecutionEvent, ExecutionId } from '../model.ts';
import { checkName } from '../names.ts';
import { anonName } from '../numbering.ts';
import { frameMustExist, type SemanticsContext } from './context.ts';
import type { HandlerGroup } from './handler-types.ts';

type FrameEnter = Extract<ExecutionEvent, { type: 'frame-enter' }>;
type FrameOp = 'enterFrame' | 'exitFrame' | 'recordEvent' | 'allocateAnon';

/** Frames and the event log: every event goes through the rules of `checkEvent` before it is appended. */
export function frameHandlers(ctx: SemanticsContext): HandlerGroup<FrameOp> {
  const { runOf, appendFrom } = ctx;
  return {
    async enterFrame(a) {
      checkName('block', a.block, 'block');
      await runOf(a.run);
      const parent = a.parent ?? null;
      const max = a.maxDepth ?? ctx.decisions.maxRecursionDepth;
      if (max < 1)
        throw new ProseError('E_INVALID_ARGUMENT', 'maxDepth must be at least 1', { location: { field: 'maxDepth' } });
      const event = await appendFrom(a.run, (state) => frameEnter(state, a.block, parent, max, a.args));
      const e = event as FrameEnter;
      return { executionId: e.executionId, depth: e.depth };
    },
    async exitFrame(a) {
      await runOf(a.run);
      const event = { type: 'frame-exit', executionId: a.executionId, status: a.status ?? 'completed' } as const;
      if (event.status !== 'completed' && event.status !== 'failed')
        throw new ProseError('E_INVALID_ARGUMENT', 'status must be completed or failed', {
          location: { field: 'status' },
        });
      await appendFrom(a.run, (state) => {
        checkEvent(state, event);
        return event;
      });
      return {};
    },
    async recordEvent(a) {
      await runOf(a.run);
      const t = a.event.type;
      if (t === 'frame-enter' || t === 'frame-exit' || t === 'anon') {
        throw new ProseError(
          'E_INVALID_ARGUMENT',
          `${t} events are recorded by ${t === 'anon' ? 'allocateAnon' : 'enterFrame/exitFrame'}`,
          { location: { field: 'event.type' } },
        );
      }
      await appendFrom(a.run, (state) => {
        if (t === 'statement') frameMustExist(state, a.event.executionId);
        checkEvent(state, a.event);
        return a.event;
      });
      return {};
    },
    async allocateAnon(a) {
      await runOf(a.run);
      const event = await appendFrom(a.run, (state) => ({
        type: 'anon',
        name: anonName(state.anonCount + 1, ctx.decisions.anonWidth),
      }));
      return { name: (event as Extract<ExecutionEvent, { type: 'anon' }>).name };
    },
  };
}

/** The frame-enter event that opens `block` under `parent`, if the parent is open and the depth within `max`. */
function frameEnter(
  state: StateView,
  block: string,
  parent: ExecutionId | null,
  max: number,
  args: FrameEnter['args'],
): FrameEnter {
  let depth = 1;
  if (parent !== null) {
    const p = state.frames.get(parent);
    if (!p) throw new ProseError('E_STATE', `no parent frame ${parent}`, { location: { field: 'parent' } });
    if (p.status !== 'executing')
      throw new ProseError('E_STATE', `parent frame ${parent} already exited`, { location: { field: 'parent' } });
    depth = p.depth + 1;
  }
  if (depth > max)
    throw new ProseError('E_RECURSION_LIMIT', `block ${block} at depth ${depth} exceeds max_depth ${max}`);
  return {
    type: 'frame-enter',
    executionId: state.nextExecutionId,
    block,
    parent,
    depth,
    ...(args ? { args } : {}),
  };
}
