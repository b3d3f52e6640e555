export { PROJECTION_RULES, REBUILD_HINT, type ProjectionRuleId } from './rules.ts';
export {
  NOT_DERIVABLE,
  type RowChange,
  type TablePlan,
  type NotDerivable,
  type RebuildOutcome,
} from './projection-plan.ts';
export { planPublished, PUBLISHED_SOURCE, type PublishedInputs } from './plan-published.ts';
export { reportStale, describeChange, nodesWithErrors, sqlLiteral } from './report-stale.ts';
export { planStatements, type PlanStatement } from './plan-statements.ts';
export { formatPlan, changeCount } from './format-plan.ts';
