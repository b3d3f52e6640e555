import { join } from 'node:path';
import { isPlain } from '../../canon/validate-receipt.ts';
import type { Finding } from '../finding.ts';
import { checkNodeLedger, type NodeLedger } from '../kit/check-ledger.ts';
import { durablePrior } from './durable-prior.ts';
import type { RunSink } from './run-sink.ts';
import { isKind } from '../kit/is-kind.ts';
import { kindOf, listOwned } from '../kit/owned-files.ts';
import { readLedger, type LedgerFile } from './read-ledger.ts';

type Sink = RunSink;

/** One node's chain in this run: what the ledger checker made of it and the lines as read. */
export interface RunChain {
  ledger: NodeLedger;
  file: LedgerFile;
  /** Receipt statuses in order (undefined where a line is not a receipt). */
  statuses: unknown[];
}

/**
 * Every receipts/{node}.jsonl of the run (fs "Directory Structure": one chain per node): the lines, then the one
 * ledger checker (src/verify/kit/check-ledger.ts) under the wm.* ids the world-model verifier reports.
 */
export function checkRunReceipts(run: string, sink: Sink): Map<string, RunChain> {
  const chains = new Map<string, RunChain>();
  const dir = join(run, 'receipts');
  if (!isKind(dir, 'dir')) {
    if (kindOf(dir) !== 'missing' && kindOf(dir) !== 'symlink')
      sink.add('wm.receipts-file', 'receipts is not a directory', { file: 'receipts' });
    return chains;
  }
  let names: string[];
  try {
    names = listOwned(dir);
  } catch (err) {
    sink.add('wm.receipts-file', `receipts/ cannot be listed: ${(err as Error).message}`, { file: 'receipts' });
    return chains;
  }
  for (const name of names) {
    if (!name.endsWith('.jsonl') || name.startsWith('.')) continue;
    const node = name.slice(0, -'.jsonl'.length);
    const file = readLedger(join(dir, name), `receipts/${name}`, sink);
    if (file)
      chains.set(
        node,
        checkChain(node, `receipts/${name}`, file, sink, durablePrior(run, node, file.texts, sink.maxFileBytes)),
      );
  }
  return chains;
}

/**
 * Checks one node's chain as the ledger at `file`; also used for a durable state/world-model/{node}/receipts.jsonl.
 * `prior` are receipts the chain continues (earlier runs'): checked as its start, their own findings left to the
 * durable check, and their renders not counted as this ledger's.
 */
export function checkChain(
  node: string,
  file: string,
  ledger: LedgerFile,
  sink: Sink,
  prior: unknown[] = [],
): RunChain {
  const first = ledger.values[0];
  if (isPlain(first) && typeof first.node === 'string' && first.node !== node)
    sink.add('wm.chain.node', `receipt names node ${JSON.stringify(first.node)} but is in ${file}`, {
      file,
      line: ledger.lines[0],
    });
  const place = (i: number) => ({ file: sink.path(file), line: ledger.lines[i], receipt: i, node });
  const before = prior.map((receipt) => ({ receipt, index: -1, place: {} }));
  const chain = [...before, ...ledger.values.map((receipt, index) => ({ receipt, index, place: place(index) }))];
  const found: Finding[] = [];
  const checked = checkNodeLedger('wm.', chain, found);
  sink.out.push(...found.filter((f) => f.receipt !== undefined));
  return {
    ledger: { ...checked, rendered: checked.rendered.filter((r) => r.index >= 0) },
    file: ledger,
    statuses: ledger.values.map((r) => (isPlain(r) ? r.status : undefined)),
  };
}
