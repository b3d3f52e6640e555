import { LEDGER_RULES } from '../kit/ledger-rules.ts';
import { prefixRules, type RuleTable } from '../kit/rule-table.ts';

/** Every rule the Reactor verifier reports, with the spec text (paraphrased) it enforces. docs/canon.md lists them. */
export const REACTOR_RULES = {
  'reactor.receipts-file': {
    severity: 'error',
    enforces: "receipts.json is one JSON array of every node's receipts in append order (Reactor fs ledger).",
  },
  'reactor.receipts-canonical': {
    severity: 'warning',
    enforces: 'receipts.json is written as canonical sorted-key compact JSON plus one LF.',
  },
  ...prefixRules('reactor.', LEDGER_RULES),
  'reactor.wm-dir-name': {
    severity: 'error',
    enforces: 'world-models/<hex(utf8(node))>/: the directory name is the lowercase hex of the node name.',
  },
  'reactor.wm-orphan': {
    severity: 'warning',
    enforces: 'A world-model directory belongs to a node that has receipts.',
  },
  'reactor.wm-missing': {
    severity: 'error',
    enforces: 'A node with a non-failed receipt has a world-model directory with its versions.',
  },
  'reactor.wm-unknown': {
    severity: 'warning',
    enforces: 'A node directory holds published.json, versions/ and workspace.bin only.',
  },
  'reactor.bin-name': {
    severity: 'error',
    enforces: 'Version files are named versions/sha256_<64 hex>.bin (the address with ":" as "_").',
  },
  'reactor.bin-parse': {
    severity: 'error',
    enforces:
      'A version file is exact OPWM1 bytes: magic, no truncation, no trailing bytes, canonical paths and order.',
  },
  'reactor.bin-hash': {
    severity: 'error',
    enforces: 'The sha256 of a version file equals its name (content addressing).',
  },
  'reactor.workspace-bin': { severity: 'error', enforces: 'workspace.bin holds OPWM1 bytes (never fingerprinted).' },
  'reactor.published-missing': { severity: 'error', enforces: 'A node that committed has published.json.' },
  'reactor.published-shape': { severity: 'error', enforces: 'published.json is exactly {version, fingerprints}.' },
  'reactor.published-match': {
    severity: 'error',
    enforces:
      "published.json equals the fingerprints of the node's last non-failed receipt (ours: the reference does not check it).",
  },
  'reactor.published-version': {
    severity: 'error',
    enforces: "published.json's version names an existing versions/*.bin (ours: the reference does not check it).",
  },
  'reactor.atomic-bin': {
    severity: 'error',
    enforces:
      "A rendered receipt's @atomic names an existing .bin when the atomic canonicalizer was used (a warning otherwise).",
  },
} as const satisfies RuleTable;

export type ReactorRuleId = keyof typeof REACTOR_RULES;
