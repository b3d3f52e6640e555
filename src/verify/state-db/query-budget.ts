import { loadedSqlite, queryRows, type Database, type SqlRow } from '../../sqlite/index.ts';

/** Rows verify reads of one query at most: a table of a billion rows must not take a billion rows of memory. */
export const MAX_ROWS_CHECKED = 100_000;
/** How long checking one database may run before SQLite is interrupted (the WASM engine's progress handler). */
export const QUERY_BUDGET_MS = 10_000;
/** SQLite VM steps between looks at the clock. */
const STEPS_PER_LOOK = 10_000;

/**
 * The queries of one check under a row and a time budget: each returns at most MAX_ROWS_CHECKED rows, and past the
 * time budget SQLite stops the statement running (SQLITE_INTERRUPT), so a crafted database ends in a finding, not a
 * hang. The time budget needs the WASM engine (node:sqlite has no progress handler); the state-db check opens with it.
 */
export class QueryBudget {
  private interruptedAt: number | undefined;
  private readonly pointer: number | undefined;

  constructor(
    private readonly db: Database,
    readonly ms = QUERY_BUDGET_MS,
  ) {
    // A WASM connection has a pointer to hand SQLite; a node:sqlite one (the native engine) has none.
    const pointer = (db as { pointer?: unknown }).pointer;
    if (typeof pointer !== 'number') return;
    const until = performance.now() + ms;
    this.pointer = pointer;
    loadedSqlite().capi.sqlite3_progress_handler(
      this.pointer,
      STEPS_PER_LOOK,
      () => {
        if (performance.now() < until) return 0;
        this.interruptedAt ??= performance.now();
        return 1;
      },
      0,
    );
  }

  /** Whether the time budget ran out (a query then threw SQLITE_INTERRUPT). */
  get interrupted(): boolean {
    return this.interruptedAt !== undefined;
  }

  rows(sql: string, params: unknown[] = []): SqlRow[] {
    return queryRows(this.db, `SELECT * FROM (${sql}) LIMIT ${MAX_ROWS_CHECKED}`, params as never);
  }

  /** Rows of `table`, counted up to one past the cap (counting further would be the unbounded work). */
  count(table: string): number {
    const r = queryRows(this.db, `SELECT count(*) AS n FROM (SELECT 1 FROM "${table.replace(/"/g, '""')}" LIMIT ?)`, [
      MAX_ROWS_CHECKED + 1,
    ]);
    return Number(r[0]?.n ?? 0);
  }

  dispose(): void {
    if (this.pointer !== undefined) loadedSqlite().capi.sqlite3_progress_handler(this.pointer, 0, 0, 0);
  }
}
