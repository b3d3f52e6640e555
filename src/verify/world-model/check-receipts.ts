import { join } from 'node:path';
import { canonicalJson, isPlain } from '../../canon/index.ts';
import type { Finding } from '../finding.ts';
import { checkNodeLedger, type NodeLedger } from '../kit/check-ledger.ts';
import { finding } from '../kit/finding-sink.ts';
import { isKind, listOwned, readOwned, RefusedFile } from '../kit/owned-files.ts';
import { WORLD_MODEL_RULES } from './rules.ts';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Checks every receipts/{node}.jsonl of a run dir: lines, envelopes, the chain and the status rules. */
export function checkReceipts(runDir: string, out: Finding[], maxFileBytes: number): Map<string, NodeLedger> {
  const ledgers = new Map<string, NodeLedger>();
  const dir = join(runDir, 'receipts');
  if (!isKind(dir, 'dir')) return ledgers;
  for (const name of listOwned(dir)) {
    if (!name.endsWith('.jsonl') || name.startsWith('.')) continue;
    const node = name.slice(0, -'.jsonl'.length);
    const file = `receipts/${name}`;
    const list = readLines(join(dir, name), { file, node, maxFileBytes }, out);
    ledgers.set(node, checkChain(list, file, node, out));
  }
  return ledgers;
}

function readLines(
  path: string,
  { file, node, maxFileBytes }: { file: string; node: string; maxFileBytes: number },
  out: Finding[],
): unknown[] {
  let text: string;
  try {
    text = UTF8.decode(readOwned(path, maxFileBytes));
  } catch (err) {
    if (err instanceof RefusedFile) return []; // a tree.* finding says why
    out.push(finding(WORLD_MODEL_RULES, 'wm.receipts-file', `${file} is not UTF-8`, { file, node }));
    return [];
  }
  if (text.length === 0) return [];
  if (!text.endsWith('\n'))
    out.push(
      finding(WORLD_MODEL_RULES, 'wm.receipts-file', `${file} does not end with a newline (a torn append?)`, {
        file,
        node,
      }),
    );
  const lines = text.replace(/\n$/, '').split('\n');
  const list: unknown[] = [];
  lines.forEach((line, i) => {
    const where = { file, line: i + 1, receipt: i, node };
    if (line.length === 0)
      return void out.push(finding(WORLD_MODEL_RULES, 'wm.receipts-file', `line ${i + 1} is blank`, where));
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      out.push(
        finding(WORLD_MODEL_RULES, 'wm.receipts-file', `line ${i + 1} is not JSON: ${(err as Error).message}`, where),
      );
      value = undefined;
    }
    if (value !== undefined) {
      let canonical: string | undefined;
      try {
        canonical = canonicalJson(value);
      } catch {
        canonical = undefined;
      }
      if (canonical !== line)
        out.push(
          finding(
            WORLD_MODEL_RULES,
            'wm.receipts-canonical',
            `line ${i + 1} is not the canonical JSON of its envelope`,
            where,
          ),
        );
    }
    list.push(value);
  });
  return list;
}

/**
 * receipts/{node}.jsonl holds one node's chain: a receipt naming another node is misplaced; the rest (envelopes,
 * chain, status rules) is the one ledger checker's.
 */
function checkChain(list: unknown[], file: string, node: string, out: Finding[]): NodeLedger {
  const first = list[0];
  if (isPlain(first) && typeof first.node === 'string' && first.node !== node) {
    out.push(
      finding(
        WORLD_MODEL_RULES,
        'wm.chain.node',
        `receipt names node ${JSON.stringify(first.node)} but is in ${file}`,
        { file, line: 1, receipt: 0, node },
      ),
    );
  }
  return checkNodeLedger(
    'wm.',
    list.map((receipt, index) => ({ receipt, index, place: { file, line: index + 1, receipt: index, node } })),
    out,
  );
}
