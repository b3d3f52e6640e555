import type { NodeLedger } from '../kit/check-ledger.ts';
import type { RowChange, TablePlan } from './projection-plan.ts';

export interface PublishedInputs {
  /** Each node's chain from the receipt table; null where its rows do not read back (db.receipt-json). */
  ledgers: ReadonlyMap<string, NodeLedger | null>;
  /** Nodes whose chain has an error finding of its own: nothing is derived from a truth in question. */
  broken: ReadonlySet<string>;
  /** world_model_published as stored: node -> version (null for a NULL version). */
  published: ReadonlyMap<string, string | null>;
  /** Whether the version is stored for the node; absent when world_model_version is not read. */
  stored?: (node: string, version: string) => boolean;
}

export const PUBLISHED_SOURCE = "receipt ledger: each node's last non-failed @atomic, no row when none rendered";

/**
 * The published pointer as the ledger derives it (decision sql-projections), compared with what is stored: the
 * changes a rebuild would write, and the nodes it holds because their truth is in question.
 */
export function planPublished(i: PublishedInputs): TablePlan {
  const plan: TablePlan = { table: 'world_model_published', derivedFrom: PUBLISHED_SOURCE, changes: [], held: [] };
  const nodes = [...new Set([...i.published.keys(), ...i.ledgers.keys()])].sort();
  for (const node of nodes) {
    const ledger = i.ledgers.get(node);
    if (ledger === null) {
      plan.held.push({ node, why: 'its receipt rows do not read back (db.receipt-json)' });
      continue;
    }
    if (i.broken.has(node)) {
      plan.held.push({ node, why: 'its receipt chain has error findings: fix the ledger first' });
      continue;
    }
    const want = ledger && ledger.rendered.length > 0 ? ledger.lastAtomic : undefined;
    if (want !== undefined && i.stored && !i.stored(node, want)) {
      plan.held.push({ node, why: `the version it would name, ${want}, is not stored (wm.atomic-version)` });
      continue;
    }
    const change = changeFor(node, i.published.has(node), i.published.get(node) ?? null, want);
    if (change) plan.changes.push(change);
  }
  return plan;
}

function changeFor(node: string, hasRow: boolean, have: string | null, want: string | undefined): RowChange | null {
  if (!hasRow) return want === undefined ? null : { op: 'insert', node, to: want };
  if (want === undefined) return { op: 'delete', node, from: have };
  return have === want ? null : { op: 'update', node, from: have, to: want };
}
