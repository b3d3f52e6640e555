import type { RuleTable } from './rule-table.ts';

/**
 * The rules of a receipt ledger, whatever file holds it: the envelope (ids from src/canon/validate-receipt.ts), the
 * per-node chain and the status rules. Each directory shape reports them under its prefix (reactor.* for a Reactor
 * receipts.json, wm.* for receipts/{node}.jsonl of a run directory) with the same meaning.
 */
export const LEDGER_RULES = {
  'receipt.object': { severity: 'error', enforces: 'A receipt is a JSON object (LedgerReceipt).' },
  'receipt.keys': {
    severity: 'error',
    enforces:
      'Every key of the reference envelope is present; inside wake and a "none" sig the key set is exact (extra keys ' +
      'at the top level are receipt.unknown-key, decision receipt-forward-compat).',
  },
  'receipt.unknown-key': {
    severity: 'warning',
    enforces:
      'Decision receipt-forward-compat: a top-level key outside the reference envelope (e.g. as_of, reason or an ' +
      'author field, which spec/02-ReactorHarness.md plans) is named, and the receipt is still hashed over it and ' +
      'chain-checked; a missing key stays receipt.keys.',
  },
  'receipt.signer-unverified': {
    severity: 'warning',
    enforces:
      'Decision receipt-forward-compat: a sig whose scheme is not "none" (a signer the harness spec plans) is ' +
      'present but not verified; a sig without a scheme stays receipt.sig.',
  },
  'receipt.schema': { severity: 'error', enforces: 'schema is "openprose.receipt" and hash_algorithm is "sha256".' },
  'receipt.field': {
    severity: 'error',
    enforces:
      'node and contract_fingerprint non-empty; status rendered|skipped|failed; input_fingerprints non-empty strings; ' +
      'semantic_diff an object; prev null or a ContentAddress.',
  },
  'receipt.wake': {
    severity: 'error',
    enforces: 'wake is exactly {source: input|self|external, refs: ContentAddress[]}.',
  },
  'receipt.fingerprints': {
    severity: 'error',
    enforces: 'fingerprints always holds "@atomic"; every token is a non-empty string.',
  },
  'receipt.cost': {
    severity: 'error',
    enforces:
      'cost has non-empty provider and model, tokens {fresh, reused} non-negative safe integers, surprise_cause a wake source.',
  },
  'receipt.surprise-cause': { severity: 'error', enforces: 'cost.surprise_cause equals wake.source.' },
  'receipt.sig': {
    severity: 'error',
    enforces: 'sig is exactly {scheme: "none", null_reason: non-empty}: the null signer is the only v1 state.',
  },
  'receipt.skipped': {
    severity: 'error',
    enforces: 'A skipped receipt has an empty semantic_diff and zero fresh tokens.',
  },
  'receipt.hash': {
    severity: 'error',
    enforces: 'content_hash is the sha256 of the canonical JSON of the envelope without content_hash.',
  },
  'chain.prev': {
    severity: 'error',
    enforces: "Per node, the first receipt has prev null and each later prev equals its predecessor's content_hash.",
  },
  'chain.node': {
    severity: 'error',
    enforces: 'All receipts of a chain share one node (receipts/{node}.jsonl: the node the file is named after).',
  },
  'status.copy-forward': {
    severity: 'error',
    enforces:
      'filesystem.md: skipped copies the fingerprints forward; failed moves no fingerprint ' +
      '(cold start: the empty-artifact @atomic). ' +
      'A rendered receipt may leave them unmoved and a failed one need not name its reason (decision reactor-status-rules).',
  },
} as const satisfies RuleTable;

export type LedgerRuleId = keyof typeof LEDGER_RULES;
