import { LEDGER_RULES } from '../kit/ledger-rules.ts';
import { prefixRules, type RuleTable } from '../kit/rule-table.ts';

/** Every rule the spec-layout world-model verifier reports, with the spec text (paraphrased) it enforces. */
export const WORLD_MODEL_RULES = {
  'wm.receipts-file': {
    severity: 'error',
    enforces:
      'receipts/{node}.jsonl: UTF-8, one JSON envelope per line, each line ending in LF, no blank lines (decision wm-receipts-file).',
  },
  'wm.receipts-canonical': {
    severity: 'warning',
    enforces: 'Each receipts line is the canonical JSON of its envelope (byte-identical across backends).',
  },
  ...prefixRules('wm.', LEDGER_RULES),
  'wm.atomic-version': {
    severity: 'error',
    enforces:
      "A rendered receipt's @atomic names a stored version (atomic canonicalizer, decision wm-receipt-version-link).",
  },
  'wm.version-format': {
    severity: 'error',
    enforces: '.version holds exactly "sha256:<64 lowercase hex>\\n" (decision wm-version-file).',
  },
  'wm.version-hash': {
    severity: 'error',
    enforces:
      'The OPWM1 address of world-model/{node}/ (every file but .version) equals .version (decision wm-hashed-root).',
  },
  'wm.version-missing': {
    severity: 'error',
    enforces: 'A node whose last non-failed receipt published a version has world-model/{node}/.version.',
  },
  'wm.version-stored': {
    severity: 'error',
    enforces:
      'The version .version names is stored under state/world-model/{node}/versions/ (decision wm-version-store).',
  },
  'wm.published-match': {
    severity: 'error',
    enforces: "The published version equals the @atomic of the node's last non-failed receipt.",
  },
  'wm.bin-name': { severity: 'error', enforces: 'Version files are named sha256_<64 hex>.bin.' },
  'wm.bin-parse': {
    severity: 'error',
    enforces:
      'A version file is exact canonical OPWM1: magic, no truncation, no trailing bytes, normalized ascending paths.',
  },
  'wm.bin-hash': { severity: 'error', enforces: 'The sha256 of a version file equals its name.' },
  'wm.orphan': {
    severity: 'warning',
    enforces: 'A world-model/{node}/ directory belongs to a node that has receipts.',
  },
  'wm.unreadable': {
    severity: 'error',
    enforces: 'A world-model directory can be walked: regular files with UTF-8 names only (no links, FIFOs, devices).',
  },
} as const satisfies RuleTable;

export type WorldModelRuleId = keyof typeof WORLD_MODEL_RULES;
