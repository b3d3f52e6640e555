import { join } from 'node:path';
import { isPlain } from '../../canon/validate-receipt.ts';
import { isKind } from '../kit/owned-files.ts';
import type { RunChain } from './check-run-receipts.ts';
import { listNames } from './list-names.ts';
import type { RunSink } from './run-sink.ts';

type Sink = RunSink;

/**
 * fs "Faceted layout — one subtree per facet": a faceted node's artifact lays each facet out as
 * world-model/{node}/published/<facet>/, and its rendered receipt carries "@atomic" (always, the ledger rules check
 * it) and one token per facet. The tokens themselves are the compiled canonicalizer's, whose bytes no text gives, so
 * only the names are held together: the last rendered receipt's facet tokens and the published/ subtrees, for a node
 * whose receipt has facet tokens (fs: "Atomic-only nodes (no `####` parts) keep the flat layout").
 */
export function checkFacets(run: string, chains: Map<string, RunChain>, sink: Sink): void {
  for (const [node, chain] of chains) {
    const last = chain.ledger.rendered.at(-1);
    if (last === undefined) continue;
    const receipt = chain.file.values[last.index];
    if (!isPlain(receipt) || !isPlain(receipt.fingerprints)) continue;
    const tokens = Object.entries(receipt.fingerprints)
      .filter(([k, v]) => k !== '@atomic' && typeof v === 'string' && v !== '')
      .map(([k]) => k);
    // An atomic-only node (no facet token) keeps whatever layout it has: a published/ directory there is just a name.
    if (tokens.length === 0 || !isKind(join(run, 'world-model', node), 'dir')) continue;
    const pubRel = `world-model/${node}/published`;
    const subtrees = isKind(join(run, pubRel), 'dir') ? listNames(join(run, pubRel)) : [];
    const where = { file: `receipts/${node}.jsonl`, line: chain.file.lines[last.index] };
    for (const name of subtrees) {
      if (!isKind(join(run, pubRel, name), 'dir'))
        sink.add('wm.facets', `${pubRel}/${name} is a file: published/ holds one directory per facet`, {
          file: `${pubRel}/${name}`,
        });
      else if (!tokens.includes(name))
        sink.add(
          'wm.facets',
          `${pubRel}/${name}/ has no "${name}" token in receipt ${last.index}'s fingerprints`,
          where,
        );
    }
    for (const facet of tokens)
      if (!subtrees.includes(facet))
        sink.add(
          'wm.facets',
          `receipt ${last.index} has a "${facet}" facet token but there is no ${pubRel}/${facet}/`,
          where,
        );
  }
}
