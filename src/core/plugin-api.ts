/**
 * The contract a module plugin implements, as types only (package.json `types`/`exports`): the factory and backend
 * it exports, the operation vocabulary with each op's arguments and result, the actor, the capabilities, the error
 * codes and the decisions it is opened with. tsc generates types/ (types/plugin-api.d.ts and what it imports) from this file
 * (scripts/gen-plugin-types.ts); `npm run check` fails when the committed declarations are stale.
 */
export type { Backend, BackendEnv, BackendFactory, Row, StorageView } from './backend.ts';
export type { Actor } from './actor.ts';
export type { OpArgs, OpResults, OpName, BindingSummary, Writer } from './ops.ts';
export type { Capability } from './capabilities.ts';
export type { Decisions } from './decisions.ts';
export type { ErrorCode, ErrorLocation, SerializedError } from './errors.ts';
export type {
  AgentScope,
  BindingKind,
  BranchStatus,
  ExecutionEvent,
  ExecutionId,
  FrameState,
  FrameStatus,
  JoinStrategy,
  LoopState,
  OnFail,
  ParallelState,
  ResumeState,
  RunRef,
  RunStatus,
  Segment,
  StatementStatus,
} from './model.ts';

import type { ERROR_CODES } from './errors.ts';
import type { CAPABILITIES } from './capabilities.ts';
import type { OpArgs, OpName, OpResults } from './ops.ts';
import type { Actor } from './actor.ts';

/** Every error code with its meaning (as types: the descriptions are string literal types). */
export type ErrorCodes = typeof ERROR_CODES;
/** Every capability with its meaning. */
export type Capabilities = typeof CAPABILITIES;

/**
 * What a plugin throws for a contract answer: any Error with a `code` from ErrorCode (the harness keeps the code;
 * anything else it reports as E_BACKEND).
 */
export interface ContractError extends Error {
  code: import('./errors.ts').ErrorCode;
  hint?: string;
  location?: import('./errors.ts').ErrorLocation;
}

/** One handler per operation, for plugins that dispatch by op name: `const handlers: OpHandlers = { createRun(args, actor) {...}, ... }`. */
export type OpHandlers = { [K in OpName]: (args: OpArgs[K], actor: Actor) => Promise<OpResults[K]> | OpResults[K] };
