import { NOT_DERIVABLE, type TablePlan } from './projection-plan.ts';
import { sqlLiteral } from './report-stale.ts';

/** The plan as lines for a person: per table its source, each change and each held row; then what is not derivable. */
export function formatPlan(plans: readonly TablePlan[]): string {
  // The ledger was not read (no world-model tables, or verify reported why it could not judge them).
  let out = plans.length
    ? ''
    : 'world_model_published: no plan: no ledger was judged here (run verify on the same target for why)\n';
  for (const p of plans) {
    out += `${p.table} (derived from the ${p.derivedFrom}): ${p.changes.length} to change, ${p.held.length} held\n`;
    for (const c of p.changes) {
      const node = sqlLiteral(c.node);
      if (c.op === 'insert') out += `  insert node=${node} version=${c.to}\n`;
      else if (c.op === 'update') out += `  update node=${node} version ${c.from ?? 'NULL'} -> ${c.to}\n`;
      else out += `  delete node=${node} (version ${c.from ?? 'NULL'}; the node has no rendered receipt)\n`;
    }
    for (const h of p.held) out += `  held node=${sqlLiteral(h.node)}: ${h.why}\n`;
  }
  for (const n of NOT_DERIVABLE) out += `${n.table}: not derivable (${n.why}): not touched\n`;
  return out;
}

/** Rows a plan would write. */
export const changeCount = (plans: readonly TablePlan[]) => plans.reduce((n, p) => n + p.changes.length, 0);
