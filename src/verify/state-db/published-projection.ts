import type { NodeLedger } from '../kit/check-ledger.ts';
import type { FindingSink } from '../kit/finding-sink.ts';
import { nodesWithErrors, planPublished, reportStale } from '../projections/index.ts';
import type { SqlRow } from '../../sqlite/index.ts';
import type { TablePlan } from '../projections/index.ts';
import type { StateDbRuleId } from './rules.ts';

/** What this needs of check-wm-tables.ts's WmTables. */
interface PublishedTables {
  q: (sql: string) => SqlRow[];
  file: string;
  sharedVersions?: boolean;
  projections?: TablePlan[];
}

/**
 * world_model_published of a current-edition state.db as the projection it is (decision sql-projections): the plan a
 * rebuild would write goes to `t.projections`, and each row it would change is a stale warning, never an error.
 */
export function checkPublishedProjection(
  t: PublishedTables,
  sink: FindingSink<StateDbRuleId>,
  ledgers: Map<string, NodeLedger | null>,
  stored: Map<string, Set<string>> | undefined,
): void {
  const rows = t.q('SELECT node, version FROM world_model_published');
  const published = new Map(rows.map((r) => [String(r.node), r.version === null ? null : String(r.version)]));
  const plan = planPublished({
    ledgers,
    broken: nodesWithErrors(sink.out),
    published,
    ...(stored && {
      stored: (node: string, version: string) =>
        // The current text keys a version by its address alone: another node's row stores it too.
        t.sharedVersions ? [...stored.values()].some((s) => s.has(version)) : (stored.get(node)?.has(version) ?? false),
    }),
  });
  reportStale(plan, sink, { file: t.file, table: 'world_model_published' });
  t.projections?.push(plan);
}
