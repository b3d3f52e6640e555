import type { Actor } from '../actor.ts';
import type { OpArgs, OpName, OpResults } from '../ops.ts';

/** Operations whose semantics live outside the core (they need src/canon), supplied through `extraHandlers`. */
export type WorldModelOp =
  | 'writeEnvelope'
  | 'readEnvelope'
  | 'commitWorldModel'
  | 'failRender'
  | 'readPublished'
  | 'readVersion'
  | 'listReceipts'
  | 'writeWorkspace';
export type CoreOp = Exclude<OpName, WorldModelOp>;
export type Handlers = { [K in OpName]: (args: OpArgs[K], actor?: Actor) => Promise<OpResults[K]> };
/** The handlers of some of the core's operations: each group file supplies one. */
export type HandlerGroup<K extends CoreOp> = { [Op in K]: Handlers[Op] };
