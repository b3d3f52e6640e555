import { ProseError } from './errors.ts';
import type { BindingKind, ExecutionId } from './model.ts';
import { OPS, type OpArgs, type OpName } from './ops.ts';

/** Who makes a call. The seed's roles: only the VM writes execution state; a subagent writes its own outputs. */
export type Actor =
  { role: 'vm' } | { role: 'subagent'; binding?: string; agent?: string; executionId?: ExecutionId | null };

export const VM: Actor = Object.freeze({ role: 'vm' });

/**
 * The actor the seed assigns to an operation when a case does not name one: a binding is written by the subagent
 * that produced it, memory and segments by the agent itself, everything else by the VM.
 */
export function defaultActor<K extends OpName>(op: K, args: OpArgs[K]): Actor {
  const a = args as Record<string, unknown>;
  switch (OPS[op].writer) {
    case 'subagent':
      return {
        role: 'subagent',
        binding: a.name as string,
        executionId: (a.executionId as ExecutionId | null | undefined) ?? null,
      };
    case 'agent':
      return { role: 'subagent', agent: a.agent as string };
    default:
      return VM;
  }
}

/**
 * Enforces who writes what (filesystem.md "Who Writes What", sqlite.md "Responsibility Separation"). The VM may
 * bind values itself (caller inputs, a caught error, a literal const: in-context.md "[Binding] err = ..."); what it
 * may not do needs the stored state and is checked by `checkVmBindsSmall` and `checkVmNeverOverwrites`.
 */
export function checkRole<K extends OpName>(op: K, args: OpArgs[K], actor: Actor): void {
  const writer = OPS[op].writer;
  if (writer === 'reader' || writer === 'any') return;
  const a = args as Record<string, unknown>;
  const deny = (why: string): never => {
    throw new ProseError('E_ROLE', `${describeActor(actor)} may not call ${op}: ${why}`, {
      location: { field: 'actor' },
    });
  };
  if (writer === 'vm') {
    if (actor.role !== 'vm') deny('only the VM writes execution state');
    return;
  }
  if (writer === 'subagent') {
    if (actor.role === 'vm') return;
    if (actor.binding !== a.name)
      deny(`a subagent writes only its own binding (${JSON.stringify(actor.binding ?? null)})`);
    const scope = (a.executionId as ExecutionId | null | undefined) ?? null;
    if ((actor.executionId ?? null) !== scope)
      deny(`a subagent writes only in its own execution scope (${actor.executionId ?? 'root'})`);
    return;
  }
  if (actor.role === 'vm') deny('memory and segments are written by the persistent agent itself');
  if (actor.role === 'subagent' && actor.agent !== a.agent)
    deny(`a subagent writes only its own agent's memory (${JSON.stringify(actor.agent ?? null)})`);
}

/** "The VM never holds full binding values" (filesystem.md): a value it binds itself, other than an input, is small. */
export function checkVmBindsSmall(name: string, kind: BindingKind, bytes: number, thresholdBytes: number): void {
  if (kind === 'input' || bytes <= thresholdBytes) return;
  throw new ProseError(
    'E_ROLE',
    `the VM may not bind ${kind} ${name} itself: ${bytes} bytes is over the attachment threshold (${thresholdBytes}); ` +
      'a large value is written by the subagent that produced it',
    { location: { field: 'actor' } },
  );
}

/**
 * "The VM does not write subagent outputs" (sqlite.md): the VM never replaces a stored binding other than an input.
 * The stored binding does not say who wrote it, so any let, const or output already there counts as a subagent's.
 */
export function checkVmNeverOverwrites(name: string, kind: BindingKind, existing: BindingKind | undefined): void {
  if (existing === undefined || (existing === 'input' && kind === 'input')) return;
  throw new ProseError(
    'E_ROLE',
    `the VM may not overwrite ${existing} ${name}: the VM never writes over a subagent's output`,
    { location: { field: 'actor' } },
  );
}

export function describeActor(actor: Actor): string {
  if (actor.role === 'vm') return 'the VM';
  const parts = [
    actor.binding && `binding ${actor.binding}`,
    actor.agent && `agent ${actor.agent}`,
    actor.executionId != null && `execution_id ${actor.executionId}`,
  ];
  return `subagent (${parts.filter(Boolean).join(', ') || 'unnamed'})`;
}
