import { canonicalJson, chainsByNode } from '../../canon/index.ts';
import type { Finding } from '../finding.ts';
import { checkNodeLedger, type NodeLedger } from '../kit/check-ledger.ts';
import { finding } from '../kit/finding-sink.ts';
import { REACTOR_RULES } from './rules.ts';

/**
 * Checks receipts.json: the file itself here, then every node's chain (envelopes, chain, status rules) with the one
 * ledger checker. Returns each node's ledger (nodes whose receipts have no string node share the key "").
 */
export function checkLedger(text: string | undefined, out: Finding[]): Map<string, NodeLedger> {
  const ledgers = new Map<string, NodeLedger>();
  const file = 'receipts.json';
  if (text === undefined) {
    out.push(finding(REACTOR_RULES, 'reactor.receipts-file', 'receipts.json is missing', { file }));
    return ledgers;
  }
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch (err) {
    out.push(
      finding(REACTOR_RULES, 'reactor.receipts-file', `receipts.json is not JSON: ${(err as Error).message}`, { file }),
    );
    return ledgers;
  }
  if (!Array.isArray(list)) {
    out.push(finding(REACTOR_RULES, 'reactor.receipts-file', 'receipts.json must hold a JSON array', { file }));
    return ledgers;
  }
  let canonical: string | undefined;
  try {
    canonical = canonicalJson(list) + '\n';
  } catch {
    canonical = undefined;
  }
  if (canonical !== text) {
    out.push(
      finding(
        REACTOR_RULES,
        'reactor.receipts-canonical',
        'receipts.json is not canonical sorted-key compact JSON plus one LF',
        { file, hint: 'the reference rewrites it canonically; receipts are still checked one by one' },
      ),
    );
  }
  for (const [node, chain] of chainsByNode(list)) {
    ledgers.set(
      node,
      checkNodeLedger(
        'reactor.',
        chain.map(({ index, receipt }) => ({ receipt, index, place: { file, receipt: index, node } })),
        out,
      ),
    );
  }
  return ledgers;
}
