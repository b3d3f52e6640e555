import type { Row } from '../../core/backend.ts';
import { toPgError } from './pg-error.ts';
import { inlineParams, type SqlValue } from './sql-literal.ts';

/** The part of pg's Pool (and of pg-mem's `createPg().Pool`) this backend uses, so one code runs on both. */
export interface PoolLike {
  query(text: string, values?: unknown[]): Promise<unknown>;
  end(): Promise<void>;
  /** Puts the values of query() in as the literals sql-literal.ts writes, itself (mem-pool.ts): PgDb need not. */
  readonly literalValues?: boolean;
  /** A dedicated connection (pg's Pool#connect), for a transaction that waits on a lock. */
  connect?(): Promise<PoolLike & { release(): void }>;
}

export interface Statement {
  sql: string;
  params?: readonly SqlValue[];
}

/** Queries with errors turned into PgError (URL redacted), and atomic multi-statement writes. */
export class PgDb {
  /**
   * `inline`: send parameters as literals we write (sql-literal.ts) instead of binding them. pg-mem needs it: its
   * own substitution turns a text parameter into an escaped string it then fails to read back ("Bad escaped
   * character in JSON" for any backslash before a space), while its standard literals are exact.
   */
  constructor(
    private readonly pool: PoolLike,
    private readonly url?: string,
    private readonly inline = false,
  ) {}

  async query<R extends Row = Row>(sql: string, params: readonly SqlValue[] = []): Promise<R[]> {
    // Bytes never come here as a Buffer (pg-mem would read one as UTF-8 text): they go as hex through decode().
    const inlined = this.inline && !this.pool.literalValues ? inlineParams(sql, params) : undefined;
    try {
      const res = (
        inlined !== undefined ? await this.pool.query(inlined) : await this.pool.query(sql, params as unknown[])
      ) as { rows: R[] };
      return res.rows;
    } catch (err) {
      throw toPgError(err, this.url);
    }
  }

  /**
   * Runs statements all-or-nothing. They go as ONE simple-protocol string with literals inlined (safely escaped):
   * a real server runs such a string as one implicit transaction, and pg-mem rolls it back on failure, whereas
   * pg-mem ignores BEGIN/ROLLBACK sent as separate queries. No BEGIN/COMMIT in the string: after an error inside
   * an explicit block a real server would leave the connection in an aborted transaction.
   * Answers the rows of the last statement.
   */
  async atomic<R extends Row = Row>(statements: readonly Statement[]): Promise<R[]> {
    const text = statements
      .map((s) =>
        inlineParams(s.sql, s.params ?? [])
          .trim()
          .replace(/;$/, ''),
      )
      .join(';\n');
    try {
      const res = (await this.pool.query(text)) as { rows: R[] } | { rows: R[] }[];
      const last = Array.isArray(res) ? res[res.length - 1] : res;
      return last?.rows ?? [];
    } catch (err) {
      throw toPgError(err, this.url);
    }
  }

  /**
   * Runs `fn` as the only holder of `key` across every process using this database: inside one transaction holding
   * pg_advisory_xact_lock(hashtext(key)) on a real server; behind an in-process queue on pg-mem, which lives in
   * one process anyway. `fn` gets a PgDb on that connection; an error rolls everything back.
   */
  async exclusive<T>(key: string, fn: (db: PgDb) => Promise<T>): Promise<T> {
    // pg-mem (the inline engine) has no advisory locks and ignores a separate BEGIN: one process, one queue.
    if (this.inline || !this.pool.connect) {
      const prev = this.queues.get(key) ?? Promise.resolve();
      const next = prev.catch(() => undefined).then(() => fn(this));
      this.queues.set(key, next);
      try {
        return await next;
      } finally {
        if (this.queues.get(key) === next) this.queues.delete(key);
      }
    }
    const client = await this.pool.connect();
    const db = new PgDb(client, this.url, this.inline);
    try {
      await db.query('BEGIN');
      await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
      const out = await fn(db);
      await db.query('COMMIT');
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  private readonly queues = new Map<string, Promise<unknown>>();

  async end(): Promise<void> {
    await this.pool.end();
  }
}
