import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, EMPTY_ARTIFACT_ADDRESS, isPlain, verifyReceiptChain } from '../../canon/index.ts';
import type { Finding } from '../finding.ts';
import { WORLD_MODEL_RULES, type WorldModelRuleId } from './rules.ts';

/** What the ledger says each node published. */
export interface NodeLedger {
  /** Receipts read from receipts/{node}.jsonl. */
  count: number;
  /** @atomic of the last non-failed receipt; undefined when every receipt failed (cold start). */
  lastAtomic?: string;
  /** Rendered receipts: line index and @atomic. */
  rendered: { index: number; atomic: string }[];
}

export function finding(rule: WorldModelRuleId, message: string, where: Omit<Finding, 'rule' | 'severity' | 'message'> = {}): Finding {
  return { rule, severity: WORLD_MODEL_RULES[rule].severity, message, ...where };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Checks every receipts/{node}.jsonl of a run dir: lines, envelopes, the chain and the status rules. */
export function checkReceipts(runDir: string, out: Finding[]): Map<string, NodeLedger> {
  const ledgers = new Map<string, NodeLedger>();
  const dir = join(runDir, 'receipts');
  if (!existsSync(dir)) return ledgers;
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.jsonl') || name.startsWith('.')) continue;
    const node = name.slice(0, -'.jsonl'.length);
    const file = `receipts/${name}`;
    const list = readLines(join(dir, name), file, node, out);
    ledgers.set(node, checkChain(list, file, node, out));
  }
  return ledgers;
}

function readLines(path: string, file: string, node: string, out: Finding[]): unknown[] {
  let text: string;
  try {
    text = UTF8.decode(readFileSync(path));
  } catch {
    out.push(finding('wm.receipts-file', `${file} is not UTF-8`, { file, node }));
    return [];
  }
  if (text.length === 0) return [];
  if (!text.endsWith('\n')) out.push(finding('wm.receipts-file', `${file} does not end with a newline (a torn append?)`, { file, node }));
  const lines = text.replace(/\n$/, '').split('\n');
  const list: unknown[] = [];
  lines.forEach((line, i) => {
    const where = { file, line: i + 1, receipt: i, node };
    if (line.length === 0) return void out.push(finding('wm.receipts-file', `line ${i + 1} is blank`, where));
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      out.push(finding('wm.receipts-file', `line ${i + 1} is not JSON: ${(err as Error).message}`, where));
      value = undefined;
    }
    if (value !== undefined) {
      let canonical: string | undefined;
      try {
        canonical = canonicalJson(value);
      } catch {
        canonical = undefined;
      }
      if (canonical !== line) out.push(finding('wm.receipts-canonical', `line ${i + 1} is not the canonical JSON of its envelope`, where));
    }
    list.push(value);
  });
  return list;
}

function checkChain(list: unknown[], file: string, node: string, out: Finding[]): NodeLedger {
  for (const p of verifyReceiptChain(list)) {
    const rule = (p.rule === 'chain.node' ? 'wm.chain.node' : `wm.${p.rule}`) as WorldModelRuleId;
    out.push(finding(rule in WORLD_MODEL_RULES ? rule : 'wm.receipt.field', `${p.field}: ${p.message}`, { file, line: (p.index ?? 0) + 1, receipt: p.index, node }));
  }
  const ledger: NodeLedger = { count: list.length, rendered: [] };
  let last: Record<string, unknown> = { '@atomic': EMPTY_ARTIFACT_ADDRESS };
  list.forEach((r, index) => {
    const where = { file, line: index + 1, receipt: index, node };
    if (!isPlain(r)) return;
    if (r.node !== node && typeof r.node === 'string' && index === 0) {
      out.push(finding('wm.chain.node', `receipt names node ${JSON.stringify(r.node)} but is in ${file}`, where));
    }
    if (!isPlain(r.fingerprints)) return;
    const fps = r.fingerprints;
    const same = sameJson(fps, last);
    if ((r.status === 'skipped' || r.status === 'failed') && !same) {
      out.push(finding('wm.status.copy-forward', `a ${r.status} receipt must carry the previous fingerprints ${JSON.stringify(last)}, got ${JSON.stringify(fps)}`, where));
    }
    if (r.status === 'rendered' && same) out.push(finding('wm.status.rendered-moved', `a rendered receipt whose fingerprints did not move (${JSON.stringify(fps)}) should have been skipped`, where));
    if (r.status === 'failed' && !(isPlain(r.semantic_diff) && typeof r.semantic_diff.failure_reason === 'string')) {
      out.push(finding('wm.status.failed-reason', 'a failed receipt carries no semantic_diff.failure_reason', where));
    }
    if (r.status === 'failed') return;
    last = fps;
    if (typeof fps['@atomic'] === 'string') {
      ledger.lastAtomic = fps['@atomic'];
      if (r.status === 'rendered') ledger.rendered.push({ index, atomic: fps['@atomic'] });
    }
  });
  return ledger;
}

/** Equality of parsed JSON values, key order ignored. */
export function sameJson(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}
