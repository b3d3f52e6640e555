import { canonicalJson, EMPTY_ARTIFACT_ADDRESS, isPlain, verifyReceiptChain } from '../../canon/index.ts';
import type { Finding } from '../finding.ts';
import { finding, type Place } from './finding-sink.ts';
import { LEDGER_RULES, type LedgerRuleId } from './ledger-rules.ts';
import { prefixRules } from './rule-table.ts';

/** What one node's chain says it published. */
export interface NodeLedger {
  /** Receipts in the chain. */
  count: number;
  /** Fingerprints of the last non-failed receipt; undefined at cold start (none, or every receipt failed). */
  last?: Record<string, unknown>;
  /** @atomic of the last non-failed receipt that has a string one. */
  lastAtomic?: string;
  /** Rendered receipts: their index (as the shape reports it) and @atomic. */
  rendered: { index: number; atomic: string }[];
}

/** One receipt of a chain with the index its shape reports and where it sits. */
export interface ChainEntry {
  receipt: unknown;
  /** Global index in receipts.json, or the line index in receipts/{node}.jsonl. */
  index: number;
  place: Place;
}

/**
 * The one receipt-ledger checker: every envelope, the chain and the status rules of one node's receipts, reported
 * under `prefix` (`reactor.` or `wm.`). Both directory shapes call it, so the same ledger gets the same findings.
 * It reads as a checker does (decision receipt-forward-compat): a newer runtime's key or signer is a warning.
 */
export function checkNodeLedger<P extends string>(prefix: P, chain: readonly ChainEntry[], out: Finding[]): NodeLedger {
  const rules = prefixRules(prefix, LEDGER_RULES);
  const add = (rule: LedgerRuleId, message: string, place: Place) =>
    out.push(finding(rules, `${prefix}${rule}`, message, place));
  const problems = verifyReceiptChain(
    chain.map((c) => c.receipt),
    'reader',
  );
  for (const p of problems) {
    const rule = (p.rule in LEDGER_RULES ? p.rule : 'receipt.field') as LedgerRuleId;
    add(rule, `${p.field}: ${p.message}`, chain[p.index ?? 0]!.place);
  }
  const ledger: NodeLedger = { count: chain.length, rendered: [] };
  for (const { receipt: r, index, place } of chain) {
    if (!isPlain(r) || !isPlain(r.fingerprints)) continue;
    const fps = r.fingerprints;
    if (r.status === 'skipped' || r.status === 'failed') {
      const expected = ledger.last ?? { '@atomic': EMPTY_ARTIFACT_ADDRESS };
      if (!sameJson(fps, expected))
        add(
          'status.copy-forward',
          `a ${r.status} receipt must carry the previous fingerprints ${JSON.stringify(expected)}, got ${JSON.stringify(fps)}`,
          place,
        );
    }
    if (r.status === 'failed') continue;
    ledger.last = fps;
    if (typeof fps['@atomic'] !== 'string') continue;
    ledger.lastAtomic = fps['@atomic'];
    if (r.status === 'rendered') ledger.rendered.push({ index, atomic: fps['@atomic'] });
  }
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
