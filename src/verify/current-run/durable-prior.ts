import { basename, dirname, join } from 'node:path';
import { durableNodeRel } from './durable-dir.ts';
import { readBytes } from './read-bytes.ts';
import { splitLines } from './text-lines.ts';

/**
 * The durable receipts of `node` that come before this run's first one, when the durable ledger
 * (`<openprose-root>/state/world-model/{node}/receipts.jsonl`) holds this run's receipts after earlier runs'. The
 * run's chain continues them (proposed durable-world-model-dir: one chain per node), so its first `prev` and its
 * copied fingerprints are judged after them. Empty otherwise; never a finding (check-durable.ts reports the file).
 */
export function durablePrior(
  run: string,
  node: string,
  runTexts: readonly (string | undefined)[],
  maxBytes: number,
): unknown[] {
  const first = runTexts.find((t) => t !== undefined);
  if (first === undefined || basename(dirname(run)) !== 'runs') return [];
  const rel = durableNodeRel(run, node);
  if (rel === undefined) return [];
  const read = readBytes(join(run, rel, 'receipts.jsonl'), maxBytes);
  if (!('bytes' in read)) return [];
  const texts = splitLines(read.bytes)
    .lines.map((l) => l.text)
    .filter((t): t is string => t !== undefined && t !== '');
  const at = texts.indexOf(first);
  return at <= 0 ? [] : texts.slice(0, at).map(parseOrUndefined);
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
