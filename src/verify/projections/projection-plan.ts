import type { Edition } from '../../core/editions.ts';

/** One row a rebuild would change, keyed by the node (the table's primary key in both current DDLs). */
export type RowChange =
  | { op: 'insert'; node: string; to: string }
  | { op: 'update'; node: string; from: string | null; to: string }
  | { op: 'delete'; node: string; from: string | null };

/** What a rebuild of one projection table would write, and the rows it leaves alone with why. */
export interface TablePlan {
  table: 'world_model_published';
  derivedFrom: string;
  changes: RowChange[];
  held: { node: string; why: string }[];
}

/** A table the texts call a projection without naming its source: listed by a rebuild, never touched. */
export interface NotDerivable {
  table: string;
  why: string;
}

/** Decision sql-projections: the texts name no canonical source for these. */
export const NOT_DERIVABLE: readonly NotDerivable[] = [
  {
    table: 'bindings',
    why: 'a "DERIVED PROJECTION" in sqlite.md and postgres.md, but no text names what it is derived from',
  },
  { table: 'x_* and other query tables', why: 'extensions: no text names a source for them' },
];

/** What `verify --rebuild-projections` found, and wrote with --write. */
export interface RebuildOutcome {
  edition: Edition;
  plans: TablePlan[];
  /** Rows written: 0 unless asked to write. */
  written: number;
}
