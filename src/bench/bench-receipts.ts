import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chainsByNode, receiptHash, verifyReceiptChain } from '../canon/index.ts';
import type { ReceiptsResult, Skipped } from './bench-report.ts';
import { measureInterleaved } from './measure.ts';
import type { Effort } from './bench-workload.ts';

/**
 * Canonical-JSON receipt hashing and per-node chain verification over the Reactor vectors (outside truth:
 * every receipt there must re-hash to its content_hash, so a wrong fast path cannot hide). The floor is plain
 * JSON.stringify + sha256 per receipt: the same bytes-to-hash work without key sorting.
 */
export function benchReceipts(vectorsDir: string | undefined, effort: Effort): ReceiptsResult | Skipped {
  if (!vectorsDir)
    return {
      skipped:
        "no Reactor vectors: the single binary and an installed package carry none; give --vectors DIR (a checkout's vectors/reactor)",
    };
  if (!existsSync(vectorsDir)) return { skipped: `no Reactor vectors at ${vectorsDir}` };
  const ledgers = readLedgers(vectorsDir);
  const all = ledgers.flat() as { content_hash?: unknown }[];
  if (all.length === 0) return { skipped: `no */receipts.json under ${vectorsDir}` };
  const bad = all.filter((r) => receiptHash(r) !== r.content_hash).length;
  if (bad > 0)
    throw new Error(`${bad} Reactor receipts do not re-hash to their content_hash: the hasher is wrong, not slow`);
  const chains = ledgers.map((l) => [...chainsByNode(l).values()].map((c) => c.map((e) => e.receipt)));
  const chainCount = chains.reduce((a, c) => a + c.length, 0);
  const t = measureInterleaved(
    [
      {
        name: 'hash',
        fn: () => {
          for (const r of all) receiptHash(r);
        },
        iterations: effort.inProcess,
      },
      {
        name: 'chain',
        fn: () => {
          for (const l of chains) for (const c of l) if (verifyReceiptChain(c).length) throw new Error('chain broke');
        },
        iterations: effort.inProcess,
      },
      {
        name: 'floor',
        fn: () => {
          for (const r of all) createHash('sha256').update(JSON.stringify(r)).digest('hex');
        },
        iterations: effort.inProcess,
      },
    ],
    effort.rounds,
  );
  const per = (name: string) => {
    const timing = t.get(name)!;
    return { ...timing, receiptsPerSec: all.length / (timing.ms / 1000) };
  };
  const hash = per('hash');
  const chain = per('chain');
  const floor = per('floor');
  return {
    source: vectorsDir,
    receipts: all.length,
    chains: chainCount,
    hash,
    chain,
    floor,
    ratios: { hash: hash.ms / floor.ms, chain: chain.ms / floor.ms },
  };
}

/** Every `<state-dir>/receipts.json` under the vectors directory, parsed: one ledger per state-dir. */
function readLedgers(vectorsDir: string): unknown[][] {
  const ledgers: unknown[][] = [];
  for (const entry of readdirSync(vectorsDir, { withFileTypes: true })) {
    const file = join(vectorsDir, entry.name, 'receipts.json');
    if (entry.isDirectory() && existsSync(file)) ledgers.push(JSON.parse(readFileSync(file, 'utf8')) as unknown[]);
  }
  return ledgers;
}
