import { basename, dirname, join } from 'node:path';
import { artifactAddress } from '../../canon/opwm1.ts';
import type { RunSink } from './run-sink.ts';
import { isKind } from '../kit/is-kind.ts';
import { checkDurableVersions } from './check-durable-versions.ts';
import { checkChain, type RunChain } from './check-run-receipts.ts';
import { durableNodeRel, UP } from './durable-dir.ts';
import { readLedger } from './read-ledger.ts';
import { readTree } from './read-tree.ts';

type Sink = RunSink;

/**
 * The durable store beside the run (fs "Directory Structure": `<openprose-root>/state/world-model/{node}/` with
 * published/, versions/, receipts.jsonl), where present: its ledger chains, holds this run's receipts in order,
 * and published/ is the version its ledger last published. Only for a run under `<openprose-root>/runs/`.
 */
export function checkDurable(run: string, chains: Map<string, RunChain>, sink: Sink): void {
  if (basename(dirname(run)) !== 'runs') return;
  const state = join(run, UP, 'state');
  if (!isKind(state, 'dir')) return; // none, or a link the tree scan reports
  for (const stray of ['world-models', 'responsibilities'])
    if (isKind(join(state, stray), 'dir'))
      sink.add('durable.dir', `state/${stray}/ is not the durable store: fs lays it out as state/world-model/{node}/`, {
        file: `${UP}/state/${stray}`,
      });
  for (const [node, chain] of [...chains].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const rel = durableNodeRel(run, node);
    if (rel !== undefined) checkNode(run, rel, node, chain, sink);
  }
}

function checkNode(run: string, rel: string, node: string, chain: RunChain, sink: Sink): void {
  let durable: RunChain | undefined;
  const ledgerRel = `${rel}/receipts.jsonl`;
  if (isKind(join(run, ledgerRel), 'file')) {
    const file = readLedger(join(run, ledgerRel), ledgerRel, sink);
    if (file) durable = checkChain(node, ledgerRel, file, sink);
    if (file && !containsRun(file.texts, chain.file.texts))
      sink.add('durable.receipts', `${ledgerRel} does not hold receipts/${node}.jsonl's lines in order`, {
        file: ledgerRel,
      });
  }
  checkDurableVersions(run, rel, node, chain, sink);
  const pubRel = `${rel}/published`;
  if (!isKind(join(run, pubRel), 'dir')) return;
  const expected = (durable ?? chain).ledger.lastAtomic;
  const tree = readTree(join(run, pubRel), sink.maxFileBytes);
  if ('refused' in tree) return;
  if ('error' in tree)
    return sink.add('durable.published', `${pubRel}/ cannot be hashed: ${tree.error}`, { file: pubRel });
  let address: string;
  try {
    address = artifactAddress(tree.files);
  } catch (err) {
    return sink.add('durable.published', `${pubRel}/ cannot be hashed: ${(err as Error).message}`, { file: pubRel });
  }
  if (expected !== undefined && address !== expected)
    sink.add('durable.published', `${pubRel}/ hashes to ${address}, but the last non-failed @atomic is ${expected}`, {
      file: pubRel,
    });
}

/** True when `part` (skipping unreadable lines) appears as consecutive lines of `whole`. */
function containsRun(whole: readonly (string | undefined)[], part: readonly (string | undefined)[]): boolean {
  const want = part.filter((t): t is string => t !== undefined && t !== '');
  if (want.length === 0) return true;
  for (let i = 0; i + want.length <= whole.length; i++) if (want.every((t, j) => whole[i + j] === t)) return true;
  return false;
}
