import { ProseError } from '../../core/errors.ts';
import { mutant, pass, type MutationContext, type Mutant } from '../mutant.ts';

/**
 * What the backend wrote itself on one storage (kept across restarts, as an index file would be); everything else
 * on disk was written by a subagent or another process.
 */
const own = new Map<string, Set<string>>();
const mine = (ctx: MutationContext) =>
  own.get(ctx.env.storageKey) ?? own.set(ctx.env.storageKey, new Set()).get(ctx.env.storageKey)!;

/** The session protocol: subagents write bindings, memory and segments themselves, and the backend must see them. */
export const SESSION_MUTANTS: Mutant[] = [
  mutant(
    'subagent-bindings-unseen',
    'resolve only finds bindings written through the backend, not the files subagents write',
    {
      intercept: async (op, args, actor, ctx) => {
        const result = await pass(op, args, actor, ctx);
        const key = (name: unknown, eid: unknown) => `${String(args.run)}\0${String(name)}\0${String(eid ?? null)}`;
        if (op === 'bind') mine(ctx).add(key(args.name, args.executionId));
        if (op === 'resolve') {
          const r = result as { name: string; executionId: number | null };
          if (!mine(ctx).has(key(r.name, r.executionId))) throw new ProseError('E_NOT_FOUND', `no binding ${r.name}`);
        }
        return result;
      },
    },
  ),
  mutant(
    'subagent-attachments-unseen',
    "an attached binding reads its attachment only when the backend wrote it; a subagent's attachment resolves to the binding's summary",
    {
      intercept: async (op, args, actor, ctx) => {
        const result = await pass(op, args, actor, ctx);
        const key = (name: unknown, eid: unknown) =>
          `${String(args.run)}\0${String(name)}\0${String(eid ?? null)}\0attached`;
        if (op === 'bind') mine(ctx).add(key(args.name, args.executionId));
        if (op === 'resolve') {
          const r = result as { name: string; executionId: number | null; attached: boolean; value: string };
          const file = `attachments/${r.executionId === null ? r.name : `${r.name}__${r.executionId}`}.md`;
          if (r.attached && !mine(ctx).has(key(r.name, r.executionId)))
            return { ...r, value: `(attached: ${Buffer.byteLength(r.value, 'utf8')} bytes in ${file})` };
        }
        return result;
      },
    },
  ),
  mutant(
    'subagent-segments-unseen',
    'listSegments only lists segments appended through the backend, so the VM hands out a used number',
    {
      intercept: async (op, args, actor, ctx) => {
        const result = await pass(op, args, actor, ctx);
        if (op === 'appendSegment')
          mine(ctx).add(`${String(args.agent)}\0${String((result as { number: number }).number)}`);
        if (op === 'listSegments') {
          const r = result as { segments: { number: number }[] };
          return { segments: r.segments.filter((s) => mine(ctx).has(`${String(args.agent)}\0${s.number}`)) };
        }
        return result;
      },
    },
  ),
];
