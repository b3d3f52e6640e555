import { ProseError } from '../../core/errors.ts';
import { foldEvents, scopeChain } from '../../core/execution-log.ts';
import type { BindingRecord, ExecutionId } from '../../core/model.ts';
import { mutant, pass, type Mutant } from '../mutant.ts';

/** Scope resolution bugs. */
export const SCOPE_MUTANTS: Mutant[] = [
  mutant('root-first', 'root scope is searched before the local frame', {
    store: (base) => ({
      resolveBinding: async (run, name, chain) =>
        (await base.readBinding(run, name, null)) ?? firstOf(base, run, name, chain),
    }),
  }),
  mutant('no-parent-walk', 'resolution looks in the current frame and root only, skipping the parents', {
    store: (base) => ({
      resolveBinding: async (run, name, chain) =>
        (await base.readBinding(run, name, chain[0] ?? null)) ?? base.readBinding(run, name, null),
    }),
  }),
  mutant('sibling-leak', 'resolution takes the binding of the highest execution_id anywhere, not only ancestors', {
    store: (base) => ({
      resolveBinding: async (run, name) => {
        const all = (await base.listBindings(run)).filter((b) => b.name === name);
        all.sort((a, b) => (b.executionId ?? 0) - (a.executionId ?? 0));
        return all[0] ? base.readBinding(run, name, all[0].executionId) : undefined;
      },
    }),
  }),
  mutant('farthest-ancestor-wins', 'the outermost frame holding the name wins instead of the nearest', {
    store: (base) => ({
      resolveBinding: async (run, name, chain) => firstOf(base, run, name, [...chain.slice(0, -1).reverse(), null]),
    }),
  }),
  mutant('missing-is-empty', 'a name bound nowhere resolves to an empty value instead of E_NOT_FOUND', {
    intercept: async (op, args, actor, ctx) => {
      try {
        return await pass(op, args, actor, ctx);
      } catch (err) {
        if (op === 'resolve' && err instanceof ProseError && err.code === 'E_NOT_FOUND')
          return { name: args.name, kind: 'let', value: '', executionId: null, attached: false };
        throw err;
      }
    },
  }),
  mutant('frame-not-checked', 'binding into an execution_id that was never allocated is accepted', {
    intercept: async (op, args, actor, ctx) => {
      if (op === 'bind' && args.executionId != null) {
        const state = foldEvents(await ctx.store.readEvents(args.run as string));
        if (!state.frames.has(args.executionId as ExecutionId)) {
          const b: BindingRecord = {
            name: args.name as string,
            kind: args.kind as 'let',
            value: args.value as string,
            executionId: args.executionId as number,
          };
          return {
            ...(await ctx.store.writeBinding(args.run as string, b, false)),
            name: b.name,
            executionId: b.executionId,
            attached: false,
          };
        }
      }
      if (op === 'resolve' && args.executionId != null) {
        try {
          scopeChain(foldEvents(await ctx.store.readEvents(args.run as string)), args.executionId as number);
        } catch {
          return pass(op, { ...args, executionId: null }, actor, ctx);
        }
      }
      return pass(op, args, actor, ctx);
    },
  }),
];

async function firstOf(
  base: { readBinding(run: string, name: string, id: ExecutionId | null): Promise<BindingRecord | undefined> },
  run: string,
  name: string,
  chain: (ExecutionId | null)[],
) {
  for (const id of chain) {
    const b = await base.readBinding(run, name, id);
    if (b) return b;
  }
  return undefined;
}
