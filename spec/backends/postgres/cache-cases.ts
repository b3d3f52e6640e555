import type { BackendEnv } from '../../../src/core/backend.ts';
import type { RowWatch } from '../../../src/backends/postgres/mem-row-watch.ts';
import type { PgDb } from '../../../src/backends/postgres/pg-db.ts';
import type { SqlValue } from '../../../src/backends/postgres/sql-literal.ts';
import { onEachEngine, type TestFactory } from './engines.ts';
import { tempEnv } from './helpers.ts';

// Issue 35's cache-honesty specs of the postgres store: each scenario runs against the store as built (it must see
// another writer's change) and against one whose cache does not check (it must miss it: the spec catches one).

/** Registers `name` twice on each engine: the store as built, and `trusting`, a cache that does not check. */
export function checkedAndUnchecked(
  name: string,
  fn: (factory: TestFactory, env: BackendEnv, trusting: boolean) => Promise<void>,
): void {
  for (const trusting of [false, true]) {
    const title = trusting ? `a cache that does not check misses it: ${name}` : `a long-lived backend sees it: ${name}`;
    onEachEngine(title, async (factory) => {
      const env = tempEnv();
      try {
        await fn(factory, env, trusting);
      } finally {
        await factory.dispose?.(env);
        env.cleanup();
      }
    });
  }
}

/** A watch that counts only the inserts into `table` made through `db`: a cache driven by it trusts itself. */
export function ownInsertsOnly(db: PgDb, table: string): RowWatch {
  let count = 0;
  const query = db.query.bind(db);
  db.query = (async (sql: string, params?: SqlValue[]) => {
    const rows = await query(sql, params);
    if (sql.startsWith(`INSERT INTO openprose.${table} `)) count++;
    return rows;
  }) as PgDb['query'];
  return { stamp: () => ({ epoch: 1, count }), counts: () => new Map() };
}
