import type { RunRef } from '../core/model.ts';
import type { WorldModelStore } from '../core/store.ts';
import { ATOMIC_FACET } from './receipt.ts';

/**
 * Rebuilds a node's published pointer, the one projection of the world-model (decision wm-projection), from the
 * canonical store alone: the @atomic of the node's last rendered receipt (skipped receipts copy it forward, failed
 * ones move nothing), published again when that version is stored. Answers the version, or null (cold start).
 */
export async function rebuildPublished(store: WorldModelStore, run: RunRef, node: string): Promise<string | null> {
  let version: string | null = null;
  for (const text of await store.readReceipts(run, node)) {
    const r = JSON.parse(text) as { status?: unknown; fingerprints?: Record<string, unknown> };
    const atomic = r.fingerprints?.[ATOMIC_FACET];
    if (r.status === 'rendered' && typeof atomic === 'string') version = atomic;
  }
  if (version === null || !(await store.readVersion(run, node, version))) return null;
  await store.publish(run, node, version);
  return version;
}
