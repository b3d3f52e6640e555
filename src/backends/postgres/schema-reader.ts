import pg from 'pg';
import { PgDb, type PoolLike } from './pg-db.ts';
import { PgError, toPgError } from './pg-error.ts';
import type { SqlValue } from './sql-literal.ts';

/** Reads schema openprose for `verify postgres:URL` (src/verify/postgres/pg-reader.ts has the shape). */
export interface SchemaReader {
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  columns(table: string, candidates: readonly string[]): Promise<Set<string> | undefined>;
  /** Ends the read: the transaction is rolled back and the connection closed. */
  close(): Promise<void>;
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

/**
 * A reader over any PgDb (pg-mem in specs): columns are probed one SELECT at a time, since pg-mem has no
 * information_schema.columns. Only SELECTs are sent; nothing here can write.
 */
export function probingReader(db: PgDb): SchemaReader {
  const ok = (sql: string) =>
    db.query(sql).then(
      () => true,
      (err: unknown) => {
        if (err instanceof PgError) return false;
        throw err;
      },
    );
  return {
    query: (sql, params = []) => db.query(sql, params as SqlValue[]),
    async columns(table, candidates) {
      if (!IDENT.test(table) || !(await ok(`SELECT 1 FROM openprose.${table} LIMIT 0`))) return undefined;
      const have = new Set<string>();
      for (const c of candidates)
        if (IDENT.test(c) && (await ok(`SELECT ${c} FROM openprose.${table} LIMIT 0`))) have.add(c);
      return have;
    },
    close: () => db.end(),
  };
}

/**
 * A reader on a real server, strictly read-only: one connection inside BEGIN TRANSACTION READ ONLY (the server refuses
 * any write), with a statement timeout so a crafted schema cannot hang verify, rolled back by close. Columns come from
 * the catalog (a failed probe would abort the transaction). Errors go through PgDb, so the URL never shows.
 */
export async function openReadOnlyReader(url: string): Promise<SchemaReader> {
  return (await openSession(url, 'BEGIN TRANSACTION READ ONLY')).reader;
}

/**
 * The same reader inside one SERIALIZABLE read-write transaction, for `verify --rebuild-projections --write`: the
 * plan is read and written in it, and only `commit` keeps the writes; close without it rolls them back.
 */
export async function openRebuildSession(url: string): Promise<SchemaReader & { commit(): Promise<void> }> {
  const { reader, db } = await openSession(url, 'BEGIN TRANSACTION ISOLATION LEVEL SERIALIZABLE READ WRITE');
  return { ...reader, commit: async () => void (await db.query('COMMIT')) };
}

async function openSession(url: string, begin: string): Promise<{ reader: SchemaReader; db: PgDb }> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  const db = new PgDb(client as unknown as PoolLike, url);
  try {
    await client.connect();
  } catch (err) {
    throw toPgError(err, url);
  }
  await db.query(begin);
  await db.query(`SET LOCAL statement_timeout = '10s'`);
  const reader: SchemaReader = {
    query: (sql, params = []) => db.query(sql, params as SqlValue[]),
    async columns(table, candidates) {
      const rows = await db.query<{ column_name: string }>(
        `SELECT c.column_name FROM information_schema.columns c JOIN information_schema.tables t
           ON t.table_schema = c.table_schema AND t.table_name = c.table_name
         WHERE c.table_schema = 'openprose' AND c.table_name = $1 AND t.table_type = 'BASE TABLE'`,
        [table],
      );
      if (rows.length === 0) return undefined;
      const names = new Set(rows.map((r) => r.column_name));
      return new Set(candidates.filter((c) => names.has(c)));
    },
    async close() {
      // After COMMIT there is no transaction: the ROLLBACK is then a harmless warning.
      await db.query('ROLLBACK').catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
  return { reader, db };
}
