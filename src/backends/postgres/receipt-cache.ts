import type { RunRef } from '../../core/model.ts';
import type { RowStamp, RowWatch } from './mem-row-watch.ts';

interface Held {
  epoch: number;
  count: number;
  receipts: string[];
}

/**
 * Each node's receipts in a run as this store last read them, checked before every use against the storage's count
 * of changes to that run's rows of the node (mem-row-watch.ts): unchanged, no query. A receipt this store appends
 * is added when the count moved by exactly that insert and the list was current before it. On pg-mem a node's
 * receipts are otherwise a scan of every receipt (issue 35); a real server, with no watch, is asked every time.
 */
export class ReceiptCache {
  private readonly held = new Map<string, Held>();

  constructor(private readonly watch: RowWatch | undefined) {}

  async read(run: RunRef, node: string, query: () => Promise<string[]>): Promise<string[]> {
    // Taken before the query: a change made while it runs moves the count, so the next call reads again.
    const now = this.watch?.stamp(run, node);
    const key = JSON.stringify([run, node]);
    const held = this.held.get(key);
    if (now && held && same(held, now)) return held.receipts.slice();
    const receipts = await query();
    if (now) this.held.set(key, { epoch: now.epoch, count: now.count, receipts });
    return receipts.slice();
  }

  /** Runs our `insert` of `receipt` (as a read would answer it) and keeps the list current when only it changed. */
  async append(run: RunRef, node: string, receipt: string, insert: () => Promise<void>): Promise<void> {
    const key = JSON.stringify([run, node]);
    const before = this.watch?.stamp(run, node);
    try {
      await insert();
    } finally {
      const held = this.held.get(key);
      const after = this.watch?.stamp(run, node);
      if (
        held &&
        before &&
        after &&
        same(held, before) &&
        after.epoch === before.epoch &&
        after.count === before.count + 1
      ) {
        held.receipts.push(receipt);
        held.count = after.count;
      } else this.held.delete(key);
    }
  }
}

const same = (held: Held, now: RowStamp) => held.epoch === now.epoch && held.count === now.count;
