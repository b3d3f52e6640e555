import pg from 'pg';
import type { BackendEnv, BackendFactory } from '../../core/backend.ts';
import { createBackend } from '../../core/semantics.ts';
import { commitReadingsOf } from '../../canon/commit-readings.ts';
import { worldModelHandlers } from '../../canon/world-model-ops.ts';
import { PG_SERVER_CAPABILITIES } from './capabilities.ts';
import { caseDatabaseName, createCaseDatabase, dropCaseDatabase, parseUrl, withDatabase } from './case-database.ts';
import { ensureSchema } from './ensure-schema.ts';
import { ProseError } from '../../core/errors.ts';
import { PgDb, type PoolLike } from './pg-db.ts';
import { PostgresStore } from './postgres-store.ts';

// int8 (COUNT(*), BIGINT) arrives as text from a real server; pg-mem gives numbers. Numbers on both.
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? (v: string) => (Number.isSafeInteger(Number(v)) ? Number(v) : v)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** A pool on the case database; idle-connection errors (a dropped database, a restarted server) are not fatal. */
export function openServerDb(url: string, caseUrl: string): PgDb {
  // standard_conforming_strings=on makes the inlined literals of PgDb.atomic exact (sql-literal.ts).
  const pool = new pg.Pool({
    connectionString: caseUrl,
    max: 4,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 2_000,
    types,
    options: '-c standard_conforming_strings=on',
  });
  pool.on('error', () => undefined);
  return new PgDb(pool as unknown as PoolLike, url);
}

/**
 * The PostgreSQL backend on a real server. The URL is a secret: it appears in no name, description, error or
 * log (errors go through `redact`). Each case gets a fresh database on that server, dropped by `dispose`.
 */
export function postgresUrlFactory(
  url: string,
  label?: string,
): BackendFactory & { openDb(env: BackendEnv): Promise<PgDb> } {
  const created = new Set<string>();
  const caseUrlOf = (env: BackendEnv) => withDatabase(url, caseDatabaseName(env.storageKey));
  /** The case database (created when missing), without the schema check. */
  const openDb = async (env: BackendEnv) => {
    parseUrl(url);
    const created = await createCaseDatabase(url, caseDatabaseName(env.storageKey));
    return { db: openServerDb(url, caseUrlOf(env)), created };
  };
  return {
    name: label ? `postgres:${label}` : 'postgres:real',
    kind: 'postgres',
    capabilities: PG_SERVER_CAPABILITIES,
    description: `PostgreSQL schema openprose on a real server${label ? ` (${label})` : ''}; one fresh database per case; the URL is not shown`,
    settings: { engine: 'postgresql server', isolation: 'one database per case, dropped after it' },
    openDb: async (env) => (await openDb(env)).db,
    async open(env) {
      const { db, created: made } = await openDb(env);
      if (made) created.add(env.storageKey);
      try {
        await checkConformingStrings(db);
        await ensureSchema(db, env.edition ?? 'v0');
      } catch (err) {
        await db.end().catch(() => undefined);
        // The database this factory made for the case cannot be set up: remove it, leaving nothing behind.
        if (created.delete(env.storageKey))
          await dropCaseDatabase(url, caseDatabaseName(env.storageKey)).catch(() => undefined);
        throw err;
      }
      const store = new PostgresStore(db, env.projectDir, env.decisions, env.edition ?? 'v0');
      return createBackend({
        store,
        extraHandlers: worldModelHandlers(store, commitReadingsOf(env.decisions)),
        decisions: env.decisions,
        capabilities: PG_SERVER_CAPABILITIES,
      });
    },
    async dispose(env) {
      created.delete(env.storageKey);
      await dropCaseDatabase(url, caseDatabaseName(env.storageKey));
    },
  };
}

/** Inlined literals are exact only when backslashes are literal; refuse a server that will not say so. */
async function checkConformingStrings(db: PgDb): Promise<void> {
  const [row] = await db.query<{ standard_conforming_strings: string }>('SHOW standard_conforming_strings');
  if (row?.standard_conforming_strings !== 'on') {
    throw new ProseError('E_BACKEND', 'the PostgreSQL server keeps standard_conforming_strings off', {
      hint: 'turn it on (the default since PostgreSQL 9.1): ALTER DATABASE ... SET standard_conforming_strings = on',
    });
  }
}
