import { join } from 'node:path';
import { artifactAddress } from '../../canon/opwm1.ts';
import type { RunSink } from './run-sink.ts';
import { isKind } from '../kit/is-kind.ts';
import type { RunChain } from './check-run-receipts.ts';
import { listNames } from './list-names.ts';
import { isRefused, readBytes } from './read-bytes.ts';
import { readTree } from './read-tree.ts';

type Sink = RunSink;
const VERSION_RE = /^sha256:[a-f0-9]{64}\n$/;

/** The node directories under world-model/ (caller/ holds inputs, not a node). */
export function publishedNodes(run: string): string[] {
  const dir = join(run, 'world-model');
  if (!isKind(dir, 'dir')) return [];
  return listNames(dir).filter((n) => n !== 'caller' && isKind(join(dir, n), 'dir'));
}

/**
 * world-model/{node}/ of a current run (fs "world-model/ — Published Canonical Truth"): .version holds the
 * address of the directory's OPWM1 (every file but .version, decision wm-hashed-root) and agrees with the @atomic
 * of the node's last non-failed receipt, under the world-model verifier's rule ids.
 */
export function checkPublished(run: string, chains: Map<string, RunChain>, sink: Sink): void {
  const dirs = publishedNodes(run);
  for (const node of [...new Set([...dirs, ...chains.keys()])].sort()) {
    const chain = chains.get(node);
    const rel = `world-model/${node}`;
    if (!chain && dirs.includes(node) && !isRefused(join(run, 'receipts', `${node}.jsonl`), sink.maxFileBytes))
      sink.add('wm.orphan', `${rel}/ has no receipts/${node}.jsonl`, { file: rel });
    const published = dirs.includes(node) ? readVersion(run, rel, sink) : undefined;
    if (published === 'refused') continue;
    if (typeof published === 'string') checkHash(run, rel, published, sink);
    if (chain) checkAgainstLedger(rel, published, chain, sink);
  }
}

function checkAgainstLedger(rel: string, published: string | null | undefined, chain: RunChain, sink: Sink): void {
  const { ledger } = chain;
  const expected = ledger.rendered.length > 0 ? ledger.lastAtomic : undefined;
  const file = `${rel}/.version`;
  if (expected !== undefined && published === undefined)
    sink.add('wm.version-missing', `the ledger published ${expected} but ${file} is missing`, { file });
  else if (published !== undefined && published !== expected)
    sink.add(
      'wm.published-match',
      `.version is ${published ?? 'unreadable'} but the last non-failed receipt has @atomic ${expected ?? '(cold start: nothing published)'}`,
      { file },
    );
}

/** undefined: no .version; null: present but not an address (reported); 'refused': the tree scan reported it. */
function readVersion(run: string, rel: string, sink: Sink): string | null | undefined | 'refused' {
  const file = `${rel}/.version`;
  const read = readBytes(join(run, file), sink.maxFileBytes);
  if ('refused' in read) return 'refused';
  if ('error' in read) {
    if (read.error !== 'is missing') sink.add('wm.unreadable', `${file} ${read.error}`, { file });
    return undefined;
  }
  const text = Buffer.from(read.bytes).toString('latin1');
  if (VERSION_RE.test(text)) return text.slice(0, -1);
  sink.add('wm.version-format', `${file} is ${JSON.stringify(text.slice(0, 80))}, not "sha256:<64 hex>\\n"`, { file });
  return /sha256:[a-f0-9]{64}/.exec(text)?.[0] ?? null;
}

function checkHash(run: string, rel: string, published: string, sink: Sink): void {
  const tree = readTree(join(run, rel), sink.maxFileBytes, (p) => p !== '.version');
  if ('refused' in tree) return;
  if ('error' in tree) return sink.add('wm.unreadable', `${rel}/ cannot be hashed: ${tree.error}`, { file: rel });
  let address: string;
  try {
    address = artifactAddress(tree.files);
  } catch (err) {
    return sink.add('wm.unreadable', `${rel}/ cannot be hashed: ${(err as Error).message}`, { file: rel });
  }
  if (address !== published)
    sink.add(
      'wm.version-hash',
      `${rel}/ hashes to ${address} but .version says ${published}`,
      {
        file: rel,
      },
      'a published file was edited, added or removed after the commit',
    );
}
