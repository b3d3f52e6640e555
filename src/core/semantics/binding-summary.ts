import type { BindingRecord, ExecutionId } from '../model.ts';

/** A binding without its value, as listBindings and resume return it. */
export const summary = (b: BindingRecord) => ({
  name: b.name,
  kind: b.kind,
  executionId: b.executionId,
  attached: !!b.attached,
});

export const byNameThenScope = (
  x: { name: string; executionId: ExecutionId | null },
  y: { name: string; executionId: ExecutionId | null },
) => (x.name < y.name ? -1 : x.name > y.name ? 1 : (x.executionId ?? 0) - (y.executionId ?? 0));
