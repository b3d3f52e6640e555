import { checkVmBindsSmall, checkVmNeverOverwrites } from '../actor.ts';
import { ProseError } from '../errors.ts';
import { scopeChain } from '../execution-log.ts';
import type { BindingRecord, ExecutionId, RunRef } from '../model.ts';
import { checkName } from '../names.ts';
import type { StateStore } from '../store.ts';
import { byNameThenScope, summary } from './binding-summary.ts';
import { frameMustExist, type SemanticsContext } from './context.ts';
import type { HandlerGroup } from './handler-types.ts';

type BindingOp = 'bind' | 'resolve' | 'listBindings';

/** Bindings: const and the VM's limits on a write, the scope chain on a read. */
export function bindingHandlers(ctx: SemanticsContext): HandlerGroup<BindingOp> {
  const { store, runOf, decisions } = ctx;
  return {
    async bind(a, actor) {
      checkName('binding', a.name, 'name');
      await runOf(a.run);
      const executionId = a.executionId ?? null;
      if (executionId !== null) frameMustExist(await ctx.stateOf(a.run), executionId);
      const bytes = Buffer.byteLength(a.value, 'utf8');
      if (actor?.role === 'vm') checkVmBindsSmall(a.name, a.kind, bytes, decisions.attachmentThresholdBytes);
      const existing = await store.readBinding(a.run, a.name, executionId);
      if (existing?.kind === 'const') {
        throw new ProseError(
          'E_CONST_REBIND',
          `const ${a.name} is already bound${executionId === null ? '' : ` in execution_id ${executionId}`}`,
        );
      }
      if (actor?.role === 'vm') checkVmNeverOverwrites(a.name, a.kind, existing?.kind);
      const attach = ctx.caps.has('attachments') && bytes > decisions.attachmentThresholdBytes;
      const record: BindingRecord = {
        name: a.name,
        kind: a.kind,
        value: a.value,
        executionId,
        ...(a.source !== undefined ? { source: a.source } : {}),
      };
      const { location } = await store.writeBinding(a.run, record, attach);
      return { name: a.name, executionId, attached: attach, location };
    },
    async resolve(a) {
      checkName('binding', a.name, 'name');
      await runOf(a.run);
      const chain = scopeChain(await ctx.stateOf(a.run), a.executionId ?? null);
      const found = store.resolveBinding
        ? await store.resolveBinding(a.run, a.name, chain)
        : await firstInChain(store, a.run, a.name, chain);
      if (!found)
        throw new ProseError(
          'E_NOT_FOUND',
          `no binding ${a.name} visible from ${a.executionId == null ? 'root' : `execution_id ${a.executionId}`}`,
        );
      return {
        name: found.name,
        kind: found.kind,
        value: found.value,
        executionId: found.executionId,
        attached: !!found.attached,
        ...(found.source ? { source: found.source } : {}),
      };
    },
    async listBindings(a) {
      await runOf(a.run);
      const all = await store.listBindings(a.run);
      return { bindings: all.map(summary).sort(byNameThenScope) };
    },
  };
}

async function firstInChain(store: StateStore, run: RunRef, name: string, chain: (ExecutionId | null)[]) {
  for (const id of chain) {
    const b = await store.readBinding(run, name, id);
    if (b) return b;
  }
  return undefined;
}
