import type { ExecutionId } from './model.ts';
import { type OpArgs, type OpName } from './ops.ts';
/** Who makes a call. The seed's roles: only the VM writes execution state; a subagent writes its own outputs. */
export type Actor = {
    role: 'vm';
} | {
    role: 'subagent';
    binding?: string;
    agent?: string;
    executionId?: ExecutionId | null;
};
export declare const VM: Actor;
/**
 * The actor the seed assigns to an operation when a case does not name one: a binding is written by the subagent
 * that produced it, memory and segments by the agent itself, everything else by the VM.
 */
export declare function defaultActor<K extends OpName>(op: K, args: OpArgs[K]): Actor;
/**
 * Enforces who writes what (filesystem.md "Who Writes What", sqlite.md "Responsibility Separation").
 * Inputs come from the caller, so the VM may write `input` bindings; every other binding is the subagent's.
 */
export declare function checkRole<K extends OpName>(op: K, args: OpArgs[K], actor: Actor): void;
export declare function describeActor(actor: Actor): string;
