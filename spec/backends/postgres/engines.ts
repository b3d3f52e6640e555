import { test } from 'uvu';
import type { BackendEnv, BackendFactory } from '../../../src/core/backend.ts';
import { createPostgresMemFactory, postgresUrlFactory } from '../../../src/backends/postgres/index.ts';
import type { PgDb } from '../../../src/backends/postgres/pg-db.ts';
import { skipReason, testPgUrl } from './helpers.ts';

export type TestFactory = BackendFactory & { openDb(env: BackendEnv): PgDb | Promise<PgDb> };

/**
 * Registers one uvu test per engine: pg-mem always, the real server when PROSE_STATE_TEST_PG_URL is set. Without
 * it the real-server test is registered as skipped (uvu counts it under Skipped) and the reason is printed.
 */
export function onEachEngine(name: string, fn: (factory: TestFactory, label: string) => Promise<void>): void {
  test(`${name} [pg-mem]`, () => fn(createPostgresMemFactory(), 'pg-mem'));
  realServerTest(`${name} [real server]`, (url) => fn(postgresUrlFactory(url, 'test'), 'real'));
}

/** A test that needs the real server: skipped, with the reason printed, when PROSE_STATE_TEST_PG_URL is unset. */
export function realServerTest(name: string, fn: (url: string) => Promise<void>): void {
  const url = testPgUrl();
  if (!url) {
    console.log(skipReason(`"${name}"`));
    test.skip(name, () => undefined);
    return;
  }
  test(name, () => fn(url));
}

/** Runs `sql` on a connection of its own to the factory's database, as another writer (psql) would. */
export async function rawQuery(factory: TestFactory, env: BackendEnv, sql: string): Promise<void> {
  const db = await factory.openDb(env);
  try {
    await db.query(sql);
  } finally {
    await db.end();
  }
}
