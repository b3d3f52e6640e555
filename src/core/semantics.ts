import { checkRole, type Actor } from './actor.ts';
import type { Backend } from './backend.ts';
import { checkArgs } from './check-args.ts';
import { ProseError } from './errors.ts';
import { OPS, type OpArgs, type OpName, type OpResults } from './ops.ts';
import { agentHandlers } from './semantics/agent-handlers.ts';
import { bindingHandlers } from './semantics/binding-handlers.ts';
import { semanticsContext, type SemanticsOptions } from './semantics/context.ts';
import { frameHandlers } from './semantics/frame-handlers.ts';
import type { CoreOp, Handlers } from './semantics/handler-types.ts';
import { runHandlers } from './semantics/run-handlers.ts';

export type { SemanticsOptions } from './semantics/context.ts';
export type { Handlers, WorldModelOp } from './semantics/handler-types.ts';

/**
 * The semantics every built-in backend shares: names, roles, const, scope chains, anonymous names, recursion
 * limits and the event rules. A backend supplies only its `StateStore`. The handlers come in groups over one
 * context (semantics/*-handlers.ts); this puts them together and guards every call.
 */
export function createBackend(opts: SemanticsOptions): Backend {
  const { store } = opts;
  const ctx = semanticsContext(opts);
  const core: { [K in CoreOp]: Handlers[K] } = {
    ...runHandlers(ctx),
    ...frameHandlers(ctx),
    ...bindingHandlers(ctx),
    ...agentHandlers(ctx),
  };
  const handlers: Partial<Handlers> = { ...core, ...opts.extraHandlers };

  return {
    async call<K extends OpName>(op: K, args: OpArgs[K], actor: Actor): Promise<OpResults[K]> {
      if (!Object.prototype.hasOwnProperty.call(OPS, op))
        throw new ProseError('E_UNSUPPORTED', `unknown operation ${JSON.stringify(op)}`);
      const spec = OPS[op];
      if (spec.capability && !ctx.caps.has(spec.capability)) {
        throw new ProseError(
          'E_UNSUPPORTED',
          `${op} needs the ${spec.capability} capability, which this backend does not declare`,
        );
      }
      const checked = checkArgs(op, args);
      checkRole(op, checked, actor);
      const handler = handlers[op] as ((x: OpArgs[K], actor: Actor) => Promise<OpResults[K]>) | undefined;
      if (!handler) throw new ProseError('E_UNSUPPORTED', `this backend does not implement ${op}`);
      return handler(checked, actor);
    },
    storage: store.storage ? () => store.storage!() : undefined,
    close: () => store.close(),
  };
}
