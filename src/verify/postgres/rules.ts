import type { RuleTable } from '../kit/rule-table.ts';
import { STATE_DB_RULES, type StateDbRuleId } from '../state-db/rules.ts';

/**
 * The rules `verify postgres:URL` reports: the state-db rules that mean the same on a PostgreSQL schema (the same ids,
 * so one ledger gets one finding whatever engine holds it), and nothing of SQLite's file or row checks.
 */
const SHARED = [
  'db.table-missing',
  'db.column-missing',
  'db.budget',
  'db.receipt-json',
  'wm.bin-hash',
  'wm.published-match',
  'wm.atomic-version',
  'proj.world_model_published.stale',
] as const;

export type PgRuleId = (typeof SHARED)[number] | Extract<StateDbRuleId, `wm.${string}`>;

export const PG_RULES = Object.fromEntries(
  Object.entries(STATE_DB_RULES).filter(([id]) => (SHARED as readonly string[]).includes(id) || id.startsWith('wm.')),
) as RuleTable<PgRuleId>;

/** The rule ids, for docs/verify-rules.md: postgres reports these with the meaning the SQLite section gives them. */
export const PG_RULE_IDS = Object.keys(PG_RULES) as PgRuleId[];
