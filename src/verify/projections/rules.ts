import type { RuleTable } from '../kit/rule-table.ts';

/** What to do about a stale projection row: the ledger is the truth and stays as written. */
export const REBUILD_HINT =
  'rebuildable: run prose-state verify --rebuild-projections TARGET to see the plan, then add --write to apply it';

/** The projection rules of the current edition's SQL state (decision sql-projections); both SQL verifiers report them. */
export const PROJECTION_RULES = {
  'proj.world_model_published.stale': {
    severity: 'warning',
    enforces:
      'README.md "Derived Projection": "rebuildable, never the truth"; the published pointer is derived from the ' +
      "receipt ledger: the @atomic of the node's last non-failed receipt, no row when none rendered (decision " +
      'sql-projections; current edition, where it replaces wm.published-match).',
    hint: REBUILD_HINT,
  },
} as const satisfies RuleTable;

export type ProjectionRuleId = keyof typeof PROJECTION_RULES;
