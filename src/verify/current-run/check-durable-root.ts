import { join } from 'node:path';
import { artifactAddress } from '../../canon/opwm1.ts';
import { isKind } from '../kit/owned-files.ts';
import { checkDurableVersions } from './check-durable-versions.ts';
import { checkChain } from './check-run-receipts.ts';
import { listNames } from './list-names.ts';
import { readLedger } from './read-ledger.ts';
import { readTree } from './read-tree.ts';
import type { RunSink } from './run-sink.ts';

type Sink = RunSink;
const ENTRIES = ['published', 'versions', 'receipts.jsonl'];

/**
 * The durable store of an `<openprose-root>` (fs "Directory Structure": state/world-model/{node}/ with published/,
 * versions/, receipts.jsonl). Every node holds only those; a node no run under runs/ has receipts for (`covered`
 * are the nodes that have: each run checks those against its own receipts) is checked on its own: its ledger
 * chains, versions/ holds each rendered version, published/ is the last one.
 */
export function checkDurableRoot(root: string, covered: ReadonlySet<string>, sink: Sink): void {
  const base = 'state/world-model';
  if (!isKind(join(root, base), 'dir')) return;
  for (const node of listNames(join(root, base))) {
    const rel = `${base}/${node}`;
    if (!isKind(join(root, rel), 'dir')) {
      sink.add('durable.node', `${rel} is not a node directory`, { file: rel });
      continue;
    }
    for (const entry of listNames(join(root, rel)))
      if (!ENTRIES.includes(entry))
        sink.add('durable.node', `${rel}/${entry} is none of published/, versions/, receipts.jsonl`, {
          file: `${rel}/${entry}`,
        });
    if (!covered.has(node)) checkLoneNode(root, rel, node, sink);
  }
}

function checkLoneNode(root: string, rel: string, node: string, sink: Sink): void {
  const ledgerRel = `${rel}/receipts.jsonl`;
  if (!isKind(join(root, ledgerRel), 'file')) {
    if (isKind(join(root, `${rel}/published`), 'dir') || isKind(join(root, `${rel}/versions`), 'dir'))
      sink.add('durable.node', `${rel}/ has published/ or versions/ but no receipts.jsonl`, { file: rel });
    return;
  }
  const file = readLedger(join(root, ledgerRel), ledgerRel, sink);
  if (!file) return;
  const chain = checkChain(node, ledgerRel, file, sink);
  checkDurableVersions(root, rel, node, chain, sink, ledgerRel);
  const pubRel = `${rel}/published`;
  if (!isKind(join(root, pubRel), 'dir')) return;
  const expected = chain.ledger.lastAtomic;
  const tree = readTree(join(root, pubRel), sink.maxFileBytes);
  if (!('files' in tree)) return; // refused (the tree scan reported it) or unreadable (checked with its run)
  let address: string;
  try {
    address = artifactAddress(tree.files);
  } catch (err) {
    return sink.add('durable.published', `${pubRel}/ cannot be hashed: ${(err as Error).message}`, { file: pubRel });
  }
  if (chain.ledger.rendered.length === 0)
    sink.add('durable.node', `${pubRel}/ is there but ${ledgerRel} has no rendered receipt`, { file: pubRel });
  else if (address !== expected)
    sink.add('durable.published', `${pubRel}/ hashes to ${address}, but the last non-failed @atomic is ${expected}`, {
      file: pubRel,
    });
}
