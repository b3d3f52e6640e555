import { join } from 'node:path';
import { isKind } from '../kit/owned-files.ts';

/** `<openprose-root>` as the run directory sees it: two levels up. */
export const UP = '../..';

/**
 * `state/world-model/{node}` relative to the run, when state/, world-model/ and {node}/ are each a real directory:
 * lstat of the last part alone would let a linked state/ lead the durable checks out of the root.
 */
export function durableNodeRel(run: string, node: string): string | undefined {
  let rel = UP;
  for (const part of ['state', 'world-model', node]) {
    rel = `${rel}/${part}`;
    if (!isKind(join(run, rel), 'dir')) return undefined;
  }
  return rel;
}
