import { ProseError } from '../core/errors.ts';
import type { RunRef } from '../core/model.ts';
import { checkName } from '../core/names.ts';
import type { StateStore, WorldModelStore } from '../core/store.ts';
import type { ContentAddress } from './content-address.ts';
import type { LedgerReceipt } from './receipt.ts';
import { validateReceipt } from './validate-receipt.ts';
import { COLD_START_FINGERPRINTS } from './world-model-receipts.ts';

/** Node names the directory layout reserves: `world-model/caller/` holds caller inputs (`wm-node-names`). */
const RESERVED_NODES = new Set(['caller']);

/**
 * What the world-model operations share over one `StateStore` (`world-model-ops.ts`): its world-model store, node
 * names checked, a node's chain read, and calls on one key serialized in this process so a chain never forks.
 */
export class WorldModelContext {
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(private readonly store: StateStore) {}

  /** Runs `fn` after every earlier call on `key` settled. */
  serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const locks = this.locks;
    const next = (locks.get(key) ?? Promise.resolve()).catch(() => undefined).then(fn);
    locks.set(key, next);
    return next.finally(() => {
      if (locks.get(key) === next) locks.delete(key);
    });
  }

  /** The world-model store, once the run is known to exist. */
  async wm(run: RunRef): Promise<WorldModelStore> {
    const rec = await this.store.readRun(run).catch((err: unknown) => {
      if (err instanceof ProseError && err.code === 'E_NOT_FOUND') return undefined;
      throw err;
    });
    if (!rec) throw new ProseError('E_NOT_FOUND', `no run ${JSON.stringify(run)}`, { location: { field: 'run' } });
    if (!this.store.worldModel) throw new ProseError('E_UNSUPPORTED', 'this backend keeps no world-model store');
    return this.store.worldModel;
  }

  nodeName(node: string): string {
    checkName('node', node, 'node');
    if (RESERVED_NODES.has(node))
      throw new ProseError('E_INVALID_NAME', `node name ${JSON.stringify(node)} is reserved`, {
        location: { field: 'node' },
        hint: 'world-model/caller/ holds the caller inputs',
      });
    return node;
  }

  /**
   * The run's last receipt of `node`, parsed alone (undefined: none yet). A commit chains to it and a read takes its
   * fingerprints; the earlier links are verify's to judge (wm.chain.prev), so a call costs one parse, not one per
   * receipt of the chain (issue 35: a node committed again and again grew every commit).
   */
  async lastInRun(s: WorldModelStore, run: RunRef, node: string): Promise<LedgerReceipt | undefined> {
    const texts = await s.readReceipts(run, node);
    const i = texts.length - 1;
    return i < 0 ? undefined : parseReceipt(texts[i]!, `receipts of ${node}[${i}]`);
  }

  /** The head a new receipt chains to: across runs where the store keeps one chain per node, else the run's. */
  async headOf(
    s: WorldModelStore,
    run: RunRef,
    node: string,
  ): Promise<{ prev: ContentAddress | null; fingerprints: Record<string, string> }> {
    const head = await this.headReceipt(s, run, node);
    return lastOf(head ? [head] : []);
  }

  /** The receipt a new one chains to (undefined: cold start), from the chain `headOf` reads. */
  async headReceipt(s: WorldModelStore, run: RunRef, node: string): Promise<LedgerReceipt | undefined> {
    if (!s.readChainHead) return this.lastInRun(s, run, node);
    const head = await s.readChainHead(run, node);
    return head === undefined ? undefined : parseReceipt(head, `the last receipt of ${node}'s chain`);
  }

  /** Calls that extend one chain are serialized on its key: the node's across runs, else the run's node. */
  chainKey(s: WorldModelStore, run: RunRef, node: string): string {
    return s.readChainHead ? `\u0000${node}` : `${run}\u0000${node}`;
  }
}

/** The head of a chain: the last receipt's hash (null: cold start) and its fingerprints. */
export function lastOf(chain: LedgerReceipt[]): { prev: ContentAddress | null; fingerprints: Record<string, string> } {
  const last = chain.at(-1);
  return {
    prev: (last?.content_hash ?? null) as ContentAddress | null,
    fingerprints: last ? last.fingerprints : { ...COLD_START_FINGERPRINTS },
  };
}

/** Stored receipt text back to an envelope; a line that is not a valid receipt is E_CORRUPT. */
export function parseReceipt(text: string, where: string): LedgerReceipt {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ProseError('E_CORRUPT', `${where} is not JSON`, { location: { field: where }, cause: err });
  }
  const problems = validateReceipt(value);
  if (problems.length > 0)
    throw new ProseError('E_CORRUPT', `${where}: ${problems[0]!.message}`, {
      location: { field: `${where}.${problems[0]!.field}` },
    });
  return value as LedgerReceipt;
}
