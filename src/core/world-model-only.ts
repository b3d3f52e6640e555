import type { Capability } from './capabilities.ts';
import type { OpName } from './ops.ts';

/**
 * The operations a backend declaring `world-model-only` keeps: a run to commit into, and the world-model and its
 * receipts. Everything else (bindings, memory, segments, events, imports, the run envelope) it answers E_UNSUPPORTED.
 */
export const WORLD_MODEL_ONLY_OPS: ReadonlySet<OpName> = new Set<OpName>([
  'createRun',
  'getRun',
  'setRunStatus',
  'commitWorldModel',
  'failRender',
  'readPublished',
  'readVersion',
  'listReceipts',
  'writeWorkspace',
]);

/**
 * Whether a backend keeps no bindings: its probes and crash, concurrency and crash-states workloads go through
 * world-model commits and receipts instead of `bind` (a backend that keeps bindings is judged the way it always was).
 */
export function keepsOnlyWorldModel(caps: readonly Capability[]): boolean {
  return caps.includes('world-model-only');
}
