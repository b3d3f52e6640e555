import type { NodeLedger } from '../kit/check-ledger.ts';
import type { FindingSink } from '../kit/finding-sink.ts';
import { MAX_ROWS_CHECKED } from '../state-db/query-budget.ts';
import { nodesWithErrors, planPublished, reportStale, sqlLiteral, type TablePlan } from '../projections/index.ts';
import type { PgSchemaReader } from './pg-reader.ts';
import type { PgRuleId } from './rules.ts';

const TABLE = 'openprose.world_model_published';

/**
 * world_model_published of a current-edition schema as the projection it is (decision sql-projections), by the rule
 * `verify state.db` applies: the plan goes to `plans`, each row it would change is a stale warning. Chains here are
 * keyed as check-pg-ledger.ts shows them, `node='...'`; the plan needs the node itself.
 */
export async function checkPgPublishedProjection(
  r: PgSchemaReader,
  keyed: Map<string, NodeLedger | null>,
  stored: Set<string> | undefined,
  sink: FindingSink<PgRuleId>,
  plans: TablePlan[] | undefined,
): Promise<void> {
  const rows = await r.query(`SELECT node, version FROM ${TABLE} LIMIT ${MAX_ROWS_CHECKED + 1}`);
  if (rows.length > MAX_ROWS_CHECKED) {
    sink.add('db.budget', `table ${TABLE} holds more than ${MAX_ROWS_CHECKED} rows: the pointer is not checked`, {
      table: TABLE,
    });
    return;
  }
  const ledgers = new Map([...keyed].map(([k, l]) => [nodeOfKey(k), l]));
  const published = new Map(rows.map((row) => [String(row.node), row.version === null ? null : String(row.version)]));
  const plan = planPublished({
    ledgers,
    broken: nodesWithErrors(sink.out),
    published,
    ...(stored && { stored: (node: string, v: string) => stored.has(`node=${sqlLiteral(node)}\u0000${v}`) }),
  });
  reportStale(plan, sink, { table: TABLE });
  plans?.push(plan);
}

/** `node='it''s'` back to `it's` (the inverse of the key check-pg-ledger.ts makes in the current edition). */
function nodeOfKey(key: string): string {
  return key.slice("node='".length, -1).replaceAll("''", "'");
}
