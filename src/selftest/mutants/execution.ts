import { defaultActor } from '../../core/actor.ts';
import { ProseError } from '../../core/errors.ts';
import { foldEvents } from '../../core/execution-log.ts';
import type { ExecutionEvent } from '../../core/model.ts';
import { mutant, pass, type Mutant, type MutationContext } from '../mutant.ts';

/** Appends an event the engine refused, as a backend without that check would. */
async function acceptAnyway(
  err: unknown,
  code: string,
  ctx: MutationContext,
  run: unknown,
  event: ExecutionEvent,
): Promise<Record<string, never>> {
  if (!(err instanceof ProseError && err.code === code)) throw err;
  await ctx.store.appendEvent(String(run), event);
  return {};
}

/** Execution state bugs: frames, loops, retries, parallel joins, run status, resume. */
export const EXECUTION_MUTANTS: Mutant[] = [
  mutant('recursion-limit-off-by-one', 'a frame one deeper than max_depth is allowed', {
    intercept: async (op, args, actor, ctx) => {
      try {
        return await pass(op, args, actor, ctx);
      } catch (err) {
        if (!(op === 'enterFrame' && err instanceof ProseError && err.code === 'E_RECURSION_LIMIT')) throw err;
        const state = foldEvents(await ctx.store.readEvents(String(args.run)));
        const parent = state.frames.get(args.parent as number);
        const max = (args.maxDepth as number | undefined) ?? ctx.env.decisions.maxRecursionDepth;
        if (!parent || parent.depth + 1 > max + 1) throw err;
        const executionId = state.nextExecutionId;
        await ctx.store.appendEvent(String(args.run), {
          type: 'frame-enter',
          executionId,
          block: String(args.block),
          parent: parent.executionId,
          depth: parent.depth + 1,
        });
        return { executionId, depth: parent.depth + 1 };
      }
    },
  }),
  mutant('depth-from-zero', 'the first frame is reported at depth 0', {
    intercept: async (op, args, actor, ctx) => {
      const r = (await pass(op, args, actor, ctx)) as { depth?: number };
      return op === 'enterFrame' && typeof r.depth === 'number' ? { ...r, depth: r.depth - 1 } : r;
    },
  }),
  mutant('execution-id-per-depth', 'execution ids count frames at a depth, so sibling invocations share an id', {
    intercept: async (op, args, actor, ctx) => {
      const r = (await pass(op, args, actor, ctx)) as { executionId?: number; depth?: number };
      return op === 'enterFrame' && typeof r.depth === 'number' ? { ...r, executionId: r.depth } : r;
    },
  }),
  mutant('loop-max-unchecked', 'a loop iteration past max is accepted', {
    intercept: async (op, args, actor, ctx) => {
      try {
        return await pass(op, args, actor, ctx);
      } catch (err) {
        return acceptAnyway(err, 'E_LOOP_MAX', ctx, args.run, args.event as ExecutionEvent);
      }
    },
  }),
  mutant('loop-iteration-gaps', 'a loop may jump from iteration 1 to 3', {
    intercept: async (op, args, actor, ctx) => {
      try {
        return await pass(op, args, actor, ctx);
      } catch (err) {
        const e = args.event as ExecutionEvent | undefined;
        if (op === 'recordEvent' && e?.type === 'loop-iteration') return acceptAnyway(err, 'E_STATE', ctx, args.run, e);
        throw err;
      }
    },
  }),
  mutant('retry-max-exclusive', 'the last allowed retry (attempt = max) is refused', {
    intercept: async (op, args, actor, ctx) => {
      const e = args.event as ExecutionEvent | undefined;
      if (op === 'recordEvent' && e?.type === 'retry' && e.attempt === e.max)
        throw new ProseError('E_RETRY_MAX', `retry ${e.attempt} is past max`);
      return pass(op, args, actor, ctx);
    },
  }),
  mutant('join-before-branches-finish', 'a parallel block joins while branches are still pending', {
    intercept: async (op, args, actor, ctx) => {
      try {
        return await pass(op, args, actor, ctx);
      } catch (err) {
        const e = args.event as ExecutionEvent | undefined;
        if (op === 'recordEvent' && e?.type === 'parallel-join') return acceptAnyway(err, 'E_STATE', ctx, args.run, e);
        throw err;
      }
    },
  }),
  mutant('first-waits-for-all', 'strategy "first" waits for every branch like "all"', {
    intercept: async (op, args, actor, ctx) => {
      const e = args.event as ExecutionEvent | undefined;
      if (op === 'recordEvent' && e?.type === 'parallel-join') {
        const p = foldEvents(await ctx.store.readEvents(String(args.run))).parallels[e.id];
        const open = p
          ? Object.entries(p.branches)
              .filter(([, s]) => s === 'pending' || s === 'executing')
              .map(([b]) => b)
          : [];
        if (open.length)
          throw new ProseError('E_STATE', `parallel ${e.id} cannot join yet: waiting for ${open.join(', ')}`);
      }
      return pass(op, args, actor, ctx);
    },
  }),
  mutant('status-not-saved', 'setRunStatus answers but the status is never stored', {
    store: () => ({ setRunStatus: async () => undefined }),
  }),
  mutant('callstack-outermost-first', 'resume lists the call stack outermost frame first', {
    intercept: async (op, args, actor, ctx) => {
      const r = (await pass(op, args, actor, ctx)) as { callStack?: unknown[] };
      return op === 'resume' && Array.isArray(r.callStack) ? { ...r, callStack: [...r.callStack].reverse() } : r;
    },
  }),
  mutant('statement-frame-unchecked', 'a statement naming an execution_id no frame has is recorded', {
    intercept: async (op, args, actor, ctx) => {
      try {
        return await pass(op, args, actor, ctx);
      } catch (err) {
        const e = args.event as ExecutionEvent | undefined;
        if (op === 'recordEvent' && e?.type === 'statement' && e.executionId != null)
          return acceptAnyway(err, 'E_STATE', ctx, args.run, e);
        throw err;
      }
    },
  }),
  mutant('call-stack-all-executing', 'resume reports every open frame executing, not the outer ones waiting', {
    intercept: async (op, args, actor, ctx) => {
      const r = (await pass(op, args, actor, ctx)) as { callStack?: { status: string }[] };
      return op === 'resume' && Array.isArray(r.callStack)
        ? { ...r, callStack: r.callStack.map((f) => ({ ...f, status: 'executing' })) }
        : r;
    },
  }),
  mutant('events-unchecked-shape', 'recordEvent accepts a frame event, letting the VM forge a frame', {
    intercept: async (op, args, actor, ctx) => {
      const e = args.event as ExecutionEvent | undefined;
      if (op === 'recordEvent' && (e?.type === 'frame-enter' || e?.type === 'frame-exit' || e?.type === 'anon')) {
        await ctx.store.appendEvent(String(args.run), e);
        return {};
      }
      return pass(op, args, actor, ctx);
    },
  }),
];

/** Role bugs: who may write what. */
export const ROLE_MUTANTS: Mutant[] = [
  mutant('roles-unchecked', 'every caller is treated as the expected writer', {
    intercept: async (op, args, actor, ctx) => ctx.real.call(op, args as never, defaultActor(op, args as never)),
  }),
  mutant('vm-overwrites-outputs', 'the VM may overwrite a stored binding and bind a value of any size', {
    intercept: async (op, args, actor, ctx) =>
      ctx.real.call(op, args as never, op === 'bind' && actor.role === 'vm' ? defaultActor(op, args as never) : actor),
  }),
  mutant('subagent-any-scope', 'a subagent may write its binding into another execution scope', {
    intercept: async (op, args, actor, ctx) =>
      ctx.real.call(
        op,
        args as never,
        op === 'bind' && actor.role === 'subagent' && actor.binding === args.name
          ? { ...actor, executionId: (args.executionId as number | null) ?? null }
          : actor,
      ),
  }),
];
