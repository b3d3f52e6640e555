import { join } from 'node:path';
import { isKind, listOwned } from '../kit/owned-files.ts';
import type { RunSink } from './run-sink.ts';
import type { RunChain } from './check-run-receipts.ts';
import { publishedNodes } from './check-published.ts';

type Sink = RunSink;

/**
 * workspace/ is "Never fingerprinted, never subscribed to" (fs "workspace/ — Private Render Scratch"): no receipt
 * names a workspace/ path, and no published node directory holds workspace scratch (a workspace/ directory, or a
 * `__` entry such as __error.md or __delegate/, which fs gives the workspace).
 */
export function checkWorkspace(run: string, chains: Map<string, RunChain>, sink: Sink): void {
  for (const [node, chain] of chains)
    chain.file.values.forEach((receipt, i) => {
      const where = workspacePath(receipt, '');
      if (where !== undefined)
        sink.add('wm.workspace', `receipt ${i} names a workspace/ path at ${where}`, {
          file: `receipts/${node}.jsonl`,
          line: chain.file.lines[i],
        });
    });
  for (const node of publishedNodes(run))
    for (const rel of scratchEntries(join(run, 'world-model', node), ''))
      sink.add('wm.workspace', `world-model/${node}/${rel} is workspace scratch in the published truth`, {
        file: `world-model/${node}/${rel}`,
      });
}

/** The JSON path of the first string naming a workspace/ path, if any. */
function workspacePath(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return /(^|[/\s])workspace\//.test(value) ? path || '$' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    const found = workspacePath(v, Array.isArray(value) ? `${path}[${k}]` : path ? `${path}.${k}` : k);
    if (found !== undefined) return found;
  }
  return undefined;
}

function scratchEntries(abs: string, rel: string): string[] {
  let names;
  try {
    names = listOwned(abs);
  } catch {
    return []; // the hash check reports what cannot be read, the tree scan what is refused
  }
  return names.flatMap((name) => {
    const path = rel ? `${rel}/${name}` : name;
    if (name === 'workspace' || name.startsWith('__')) return [path];
    return isKind(join(abs, name), 'dir') ? scratchEntries(join(abs, name), path) : [];
  });
}
