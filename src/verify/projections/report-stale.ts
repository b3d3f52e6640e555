import type { Finding } from '../finding.ts';
import type { Place } from '../kit/finding-sink.ts';
import type { RowChange, TablePlan } from './projection-plan.ts';
import type { ProjectionRuleId } from './rules.ts';

/** The part of a FindingSink this needs, so either SQL verifier's sink (a superset of rules) fits. */
interface StaleSink {
  add(rule: ProjectionRuleId, message: string, where?: Pick<Place, 'file' | 'table' | 'row'>): void;
}

/** One warning per row a rebuild would change: the row is stale, the truth it derives from is not in question. */
export function reportStale(plan: TablePlan, sink: StaleSink, where: { file?: string; table: string }): void {
  for (const c of plan.changes)
    sink.add(`proj.${plan.table}.stale`, `${describeChange(c)}: rebuildable: run verify --rebuild-projections`, {
      ...where,
      row: `node=${sqlLiteral(c.node)}`,
    });
}

/** What the stored row says against what the ledger derives. */
export function describeChange(c: RowChange): string {
  const ledger = "the ledger's last non-failed @atomic is";
  if (c.op === 'insert') return `world_model_published has no row but ${ledger} ${c.to}`;
  const have = `world_model_published says ${c.from ?? 'NULL'}`;
  return c.op === 'update'
    ? `${have} but ${ledger} ${c.to}`
    : `${have} but the ledger has no rendered receipt of the node`;
}

/** Nodes with an error finding of the ledger (wm.*): their chain is in question, so no projection is derived from it. */
export function nodesWithErrors(findings: readonly Finding[]): Set<string> {
  return new Set(
    findings
      .filter((f) => f.severity === 'error' && f.rule.startsWith('wm.') && f.node !== undefined)
      .map((f) => f.node!),
  );
}

/** A text as a SQL literal, so a hostile node name cannot blur where a finding points. */
export const sqlLiteral = (v: string) => `'${v.replaceAll("'", "''")}'`;
