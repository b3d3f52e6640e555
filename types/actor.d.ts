import type { BindingKind, ExecutionId } from './model.ts';
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
 * Enforces who writes what (filesystem.md "Who Writes What", sqlite.md "Responsibility Separation"). The VM may
 * bind values itself (caller inputs, a caught error, a literal const: in-context.md "[Binding] err = ..."); what it
 * may not do needs the stored state and is checked by `checkVmBindsSmall` and `checkVmNeverOverwrites`.
 */
export declare function checkRole<K extends OpName>(op: K, args: OpArgs[K], actor: Actor): void;
/** "The VM never holds full binding values" (filesystem.md): a value it binds itself, other than an input, is small. */
export declare function checkVmBindsSmall(name: string, kind: BindingKind, bytes: number, thresholdBytes: number): void;
/**
 * "The VM does not write subagent outputs" (sqlite.md): the VM never replaces a stored binding other than an input.
 * The stored binding does not say who wrote it, so any let, const or output already there counts as a subagent's.
 */
export declare function checkVmNeverOverwrites(name: string, kind: BindingKind, existing: BindingKind | undefined): void;
export declare function describeActor(actor: Actor): string;
