import { canonicalJson, chainsByNode, EMPTY_ARTIFACT_ADDRESS, isPlain, verifyReceiptChain } from '../../canon/index.ts';
import type { Finding } from '../finding.ts';
import { REACTOR_RULES, type ReactorRuleId } from './rules.ts';

export interface LedgerFacts {
  /** Receipt count per node. */
  receipts: Map<string, number>;
  /** Fingerprints of each node's last non-failed receipt (absent: cold start). */
  lastFingerprints: Map<string, Record<string, unknown>>;
  /** Rendered receipts per node, with their global index and @atomic. */
  rendered: Map<string, { index: number; atomic: string }[]>;
}

export function finding(rule: ReactorRuleId, message: string, where: Omit<Finding, 'rule' | 'severity' | 'message'> = {}, severity?: 'error' | 'warning'): Finding {
  return { rule, severity: severity ?? REACTOR_RULES[rule].severity, message, ...where };
}

/** Checks receipts.json: the file, every envelope, every node's chain and the status rules. */
export function checkLedger(text: string | undefined, out: Finding[]): LedgerFacts {
  const facts: LedgerFacts = { receipts: new Map(), lastFingerprints: new Map(), rendered: new Map() };
  const file = 'receipts.json';
  if (text === undefined) {
    out.push(finding('reactor.receipts-file', 'receipts.json is missing', { file }));
    return facts;
  }
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch (err) {
    out.push(finding('reactor.receipts-file', `receipts.json is not JSON: ${(err as Error).message}`, { file }));
    return facts;
  }
  if (!Array.isArray(list)) {
    out.push(finding('reactor.receipts-file', 'receipts.json must hold a JSON array', { file }));
    return facts;
  }
  let canonical: string | undefined;
  try {
    canonical = canonicalJson(list) + '\n';
  } catch {
    canonical = undefined;
  }
  if (canonical !== text) {
    out.push(finding('reactor.receipts-canonical', 'receipts.json is not canonical sorted-key compact JSON plus one LF', { file, hint: 'the reference rewrites it canonically; receipts are still checked one by one' }));
  }
  for (const [node, chain] of chainsByNode(list)) {
    facts.receipts.set(node, chain.length);
    for (const p of verifyReceiptChain(chain.map((c) => c.receipt))) {
      const index = chain[p.index ?? 0]!.index;
      out.push(finding(`reactor.${p.rule}` as ReactorRuleId, `${p.field}: ${p.message}`, { file, receipt: index, node }));
    }
    checkStatuses(node, chain, facts, out);
  }
  return facts;
}

/** skipped and failed carry the previous non-failed fingerprints (cold start when none); rendered may move them. */
function checkStatuses(node: string, chain: { index: number; receipt: unknown }[], facts: LedgerFacts, out: Finding[]): void {
  let last: Record<string, unknown> | undefined;
  const rendered: { index: number; atomic: string }[] = [];
  for (const { index, receipt } of chain) {
    if (!isPlain(receipt) || !isPlain(receipt.fingerprints)) continue;
    const fps = receipt.fingerprints;
    if (receipt.status === 'skipped' || receipt.status === 'failed') {
      const expected = last ?? { '@atomic': EMPTY_ARTIFACT_ADDRESS };
      if (!sameJson(fps, expected)) {
        out.push(finding('reactor.status.copy-forward', `a ${receipt.status} receipt must carry the previous fingerprints ${JSON.stringify(expected)}, got ${JSON.stringify(fps)}`, { file: 'receipts.json', receipt: index, node }));
      }
    }
    if (receipt.status === 'failed') continue;
    last = fps;
    if (receipt.status === 'rendered' && typeof fps['@atomic'] === 'string') rendered.push({ index, atomic: fps['@atomic'] });
  }
  if (last) facts.lastFingerprints.set(node, last);
  facts.rendered.set(node, rendered);
}

/** Equality of parsed JSON values, key order ignored. */
export function sameJson(a: unknown, b: unknown): boolean {
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}
