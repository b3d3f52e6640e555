import type { TablePlan } from './projection-plan.ts';

export interface PlanStatement {
  sql: string;
  params: string[];
}

/**
 * The statements that apply a plan: only (node, version) of the projection table, as the VM's publish writes them
 * (decision sql-projections). `table` is the engine's name for it; `param(n)` its n-th placeholder (? or $n).
 */
export function planStatements(plan: TablePlan, table: string, param: (n: number) => string): PlanStatement[] {
  return plan.changes.map((c) => {
    switch (c.op) {
      case 'insert':
        return {
          sql: `INSERT INTO ${table} (node, version) VALUES (${param(1)}, ${param(2)})`,
          params: [c.node, c.to],
        };
      case 'update':
        return { sql: `UPDATE ${table} SET version = ${param(1)} WHERE node = ${param(2)}`, params: [c.to, c.node] };
      case 'delete':
        return { sql: `DELETE FROM ${table} WHERE node = ${param(1)}`, params: [c.node] };
    }
  });
}
