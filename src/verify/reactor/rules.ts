/** Every rule the Reactor verifier reports, with the spec text (paraphrased) it enforces. docs/canon.md lists them. */
export interface ReactorRule {
  severity: 'error' | 'warning';
  enforces: string;
}

export const REACTOR_RULES = {
  'reactor.receipts-file': { severity: 'error', enforces: 'receipts.json is one JSON array of every node\'s receipts in append order (Reactor fs ledger).' },
  'reactor.receipts-canonical': { severity: 'warning', enforces: 'receipts.json is written as canonical sorted-key compact JSON plus one LF.' },
  'reactor.receipt.object': { severity: 'error', enforces: 'A receipt is a JSON object (LedgerReceipt).' },
  'reactor.receipt.keys': { severity: 'error', enforces: 'The envelope key set is exact: extra keys are errors, except inside cost.' },
  'reactor.receipt.schema': { severity: 'error', enforces: 'schema is "openprose.receipt" and hash_algorithm is "sha256".' },
  'reactor.receipt.field': { severity: 'error', enforces: 'node and contract_fingerprint non-empty; status rendered|skipped|failed; input_fingerprints non-empty strings; semantic_diff an object; prev null or a ContentAddress.' },
  'reactor.receipt.wake': { severity: 'error', enforces: 'wake is exactly {source: input|self|external, refs: ContentAddress[]}.' },
  'reactor.receipt.fingerprints': { severity: 'error', enforces: 'fingerprints always holds "@atomic"; every token is a non-empty string.' },
  'reactor.receipt.cost': { severity: 'error', enforces: 'cost has non-empty provider and model, tokens {fresh, reused} non-negative safe integers, surprise_cause a wake source.' },
  'reactor.receipt.surprise-cause': { severity: 'error', enforces: 'cost.surprise_cause equals wake.source.' },
  'reactor.receipt.sig': { severity: 'error', enforces: 'sig is exactly {scheme: "none", null_reason: non-empty}: the null signer is the only v1 state.' },
  'reactor.receipt.skipped': { severity: 'error', enforces: 'A skipped receipt has an empty semantic_diff and zero fresh tokens.' },
  'reactor.receipt.hash': { severity: 'error', enforces: 'content_hash is the sha256 of the canonical JSON of the envelope without content_hash.' },
  'reactor.chain.prev': { severity: 'error', enforces: 'Per node, the first receipt has prev null and each later prev equals its predecessor\'s content_hash.' },
  'reactor.chain.node': { severity: 'error', enforces: 'All receipts of a chain share one node.' },
  'reactor.status.copy-forward': { severity: 'error', enforces: 'Nothing moved -> skipped copies the fingerprints forward; an error -> failed, and no fingerprint moves.' },
  'reactor.wm-dir-name': { severity: 'error', enforces: 'world-models/<hex(utf8(node))>/: the directory name is the lowercase hex of the node name.' },
  'reactor.wm-orphan': { severity: 'warning', enforces: 'A world-model directory belongs to a node that has receipts.' },
  'reactor.wm-missing': { severity: 'error', enforces: 'A node with a non-failed receipt has a world-model directory with its versions.' },
  'reactor.wm-unknown': { severity: 'warning', enforces: 'A node directory holds published.json, versions/ and workspace.bin only.' },
  'reactor.bin-name': { severity: 'error', enforces: 'Version files are named versions/sha256_<64 hex>.bin (the address with ":" as "_").' },
  'reactor.bin-parse': { severity: 'error', enforces: 'A version file is exact OPWM1 bytes: magic, no truncation, no trailing bytes, canonical paths and order.' },
  'reactor.bin-hash': { severity: 'error', enforces: 'The sha256 of a version file equals its name (content addressing).' },
  'reactor.workspace-bin': { severity: 'error', enforces: 'workspace.bin holds OPWM1 bytes (never fingerprinted).' },
  'reactor.published-missing': { severity: 'error', enforces: 'A node that committed has published.json.' },
  'reactor.published-shape': { severity: 'error', enforces: 'published.json is exactly {version, fingerprints}.' },
  'reactor.published-match': { severity: 'error', enforces: 'published.json equals the fingerprints of the node\'s last non-failed receipt (ours: the reference does not check it).' },
  'reactor.published-version': { severity: 'error', enforces: 'published.json\'s version names an existing versions/*.bin (ours: the reference does not check it).' },
  'reactor.atomic-bin': { severity: 'error', enforces: 'A rendered receipt\'s @atomic names an existing .bin when the atomic canonicalizer was used (a warning otherwise).' },
} as const satisfies Record<string, ReactorRule>;

export type ReactorRuleId = keyof typeof REACTOR_RULES;
