/**
 * What `verify postgres:URL` needs of a database: read-only queries and the columns of a table of schema openprose.
 * The CLI gives one on a real server, inside a READ ONLY transaction that is rolled back; specs give one on pg-mem.
 * (Typed here, not in a backend: verify imports no backend, and a backend's reader matches this shape.)
 */
export interface PgSchemaReader {
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Which of `candidates` openprose.{table} has; undefined when there is no such table (or it is a view). */
  columns(table: string, candidates: readonly string[]): Promise<Set<string> | undefined>;
}
