/** Every rule the spec-layout world-model verifier reports, with the spec text (paraphrased) it enforces. */
export interface WorldModelRule {
  severity: 'error' | 'warning';
  enforces: string;
}

export const WORLD_MODEL_RULES = {
  'wm.receipts-file': { severity: 'error', enforces: 'receipts/{node}.jsonl: UTF-8, one JSON envelope per line, each line ending in LF, no blank lines (decision wm-receipts-file).' },
  'wm.receipts-canonical': { severity: 'warning', enforces: 'Each receipts line is the canonical JSON of its envelope (byte-identical across backends).' },
  'wm.receipt.object': { severity: 'error', enforces: 'A receipt is a JSON object (LedgerReceipt).' },
  'wm.receipt.keys': { severity: 'error', enforces: 'The envelope key set is exact: extra keys are errors, except inside cost.' },
  'wm.receipt.schema': { severity: 'error', enforces: 'schema is "openprose.receipt" and hash_algorithm is "sha256".' },
  'wm.receipt.field': { severity: 'error', enforces: 'node and contract_fingerprint non-empty; status rendered|skipped|failed; input_fingerprints non-empty strings; semantic_diff an object; prev null or a ContentAddress.' },
  'wm.receipt.wake': { severity: 'error', enforces: 'wake is exactly {source: input|self|external, refs: ContentAddress[]}.' },
  'wm.receipt.fingerprints': { severity: 'error', enforces: 'fingerprints always holds "@atomic"; every token is a non-empty string.' },
  'wm.receipt.cost': { severity: 'error', enforces: 'cost has non-empty provider and model, tokens {fresh, reused} non-negative safe integers, surprise_cause a wake source.' },
  'wm.receipt.surprise-cause': { severity: 'error', enforces: 'cost.surprise_cause equals wake.source.' },
  'wm.receipt.sig': { severity: 'error', enforces: 'sig is exactly {scheme: "none", null_reason: non-empty}.' },
  'wm.receipt.skipped': { severity: 'error', enforces: 'A skipped receipt has an empty semantic_diff and zero fresh tokens.' },
  'wm.receipt.hash': { severity: 'error', enforces: 'content_hash is the sha256 of the canonical JSON of the envelope without content_hash.' },
  'wm.chain.prev': { severity: 'error', enforces: 'Per node, the first receipt has prev null and each later prev equals its predecessor\'s content_hash.' },
  'wm.chain.node': { severity: 'error', enforces: 'Every receipt of receipts/{node}.jsonl names that node.' },
  'wm.status.copy-forward': { severity: 'error', enforces: 'filesystem.md: skipped copies the fingerprints forward; failed moves no fingerprint (cold start: the empty-artifact @atomic).' },
  'wm.status.rendered-moved': { severity: 'error', enforces: 'filesystem.md: a rendered receipt is written only when a fingerprint moved.' },
  'wm.status.failed-reason': { severity: 'warning', enforces: 'A failed receipt carries semantic_diff.failure_reason (decision wm-semantic-diff).' },
  'wm.atomic-version': { severity: 'error', enforces: 'A rendered receipt\'s @atomic names a stored version (atomic canonicalizer, decision wm-receipt-version-link).' },
  'wm.version-format': { severity: 'error', enforces: '.version holds exactly "sha256:<64 lowercase hex>\\n" (decision wm-version-file).' },
  'wm.version-hash': { severity: 'error', enforces: 'The OPWM1 address of world-model/{node}/ (every file but .version) equals .version (decision wm-hashed-root).' },
  'wm.version-missing': { severity: 'error', enforces: 'A node whose last non-failed receipt published a version has world-model/{node}/.version.' },
  'wm.version-stored': { severity: 'error', enforces: 'The version .version names is stored under state/world-model/{node}/versions/ (decision wm-version-store).' },
  'wm.published-match': { severity: 'error', enforces: 'The published version equals the @atomic of the node\'s last non-failed receipt.' },
  'wm.bin-name': { severity: 'error', enforces: 'Version files are named sha256_<64 hex>.bin.' },
  'wm.bin-parse': { severity: 'error', enforces: 'A version file is exact canonical OPWM1: magic, no truncation, no trailing bytes, normalized ascending paths.' },
  'wm.bin-hash': { severity: 'error', enforces: 'The sha256 of a version file equals its name.' },
  'wm.orphan': { severity: 'warning', enforces: 'A world-model/{node}/ directory belongs to a node that has receipts.' },
  'wm.unreadable': { severity: 'error', enforces: 'A world-model directory can be walked: regular files with UTF-8 names only (no links, FIFOs, devices).' },
} as const satisfies Record<string, WorldModelRule>;

export type WorldModelRuleId = keyof typeof WORLD_MODEL_RULES;
