import type { WorldModelStore } from '../../core/store.ts';
import { ProseError } from '../../core/errors.ts';
import { WORLD_MODEL_ONLY_OPS } from '../../core/world-model-only.ts';
import type { FsStore } from '../../backends/filesystem/fs-store.ts';
import { mutant, pass, type Mutant } from '../mutant.ts';
import { writeQueue } from './write-queue.ts';

/**
 * A backend that keeps only world-models and receipts (world-model-only) and answers a commit before its version,
 * pointer and receipt are written: the crash and crash-states areas must catch it through commits alone.
 */
export const COMMIT_DURABILITY_MUTANTS: Mutant[] = [
  mutant(
    'commit-acked-before-durable',
    'a world-model-only backend answers a commit at once and writes its version, pointer and receipt a second later (or at its next call)',
    {
      capabilities: () => ['world-model', 'receipts', 'durable', 'multi-process', 'world-model-only'],
      store: (base) => commitWriteBehind(base),
      intercept: (op, args, actor, ctx) => {
        if (!WORLD_MODEL_ONLY_OPS.has(op))
          return Promise.reject(new ProseError('E_UNSUPPORTED', `${op}: this backend keeps only world-models`));
        return pass(op, args, actor, ctx);
      },
    },
  ),
];

const QUEUED = new Set<keyof WorldModelStore>(['writeVersion', 'publish', 'appendReceipt']);

/**
 * The world-model writes of a commit are queued and the commit answered; every other call (close among them) writes
 * the queue first, so the backend reads its own writes and a clean close loses nothing. Only a writer killed before
 * its next call shows that an answered commit was never written.
 */
function commitWriteBehind(base: FsStore): { worldModel: WorldModelStore; close: () => Promise<void> } {
  const wm = base.worldModel!;
  const { defer, flush } = writeQueue();
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(collectKeys(wm))) {
    const fn = (wm as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[key]!;
    if (typeof fn !== 'function') continue;
    out[key] = QUEUED.has(key as keyof WorldModelStore)
      ? async (...args: unknown[]) => {
          defer(() => fn.apply(wm, args));
        }
      : async (...args: unknown[]) => {
          await flush();
          return fn.apply(wm, args);
        };
  }
  return {
    worldModel: out as unknown as WorldModelStore,
    close: async () => {
      await flush();
      await base.close();
    },
  };
}

/** The methods of an object, its prototype chain's included (the store may be a class instance). */
function collectKeys(o: object): Record<string, true> {
  const keys: Record<string, true> = {};
  for (let p = o; p && p !== Object.prototype; p = Object.getPrototypeOf(p))
    for (const k of Object.getOwnPropertyNames(p)) if (k !== 'constructor') keys[k] = true;
  return keys;
}
