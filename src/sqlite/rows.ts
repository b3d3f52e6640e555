import { ProseError } from '../core/errors.ts';
import type { Database as WasmDatabase } from '@sqlite.org/sqlite-wasm';
import { NativeDatabase } from './native-db.ts';
import { loadedSqlite, type Sqlite3Static } from './wasm.ts';
import { decodeWtf8 } from './wtf8.ts';

import type { SqlParams, SqlRow, SqlValue } from './sql-values.ts';

export type { SqlParams, SqlRow, SqlValue };
/** A connection handed to `read`/`write` callbacks: WASM SQLite's, or node:sqlite's on the native engine. */
export type Database = WasmDatabase | NativeDatabase;
export type { WasmDatabase };

/**
 * A column's TEXT exactly as stored: the bytes sqlite3_column_blob gives, decoded here because the WASM build's own
 * decoder drops a leading U+FEFF and turns encoded lone surrogates (wtf8.ts) into U+FFFD.
 */
export function columnText(sqlite3: Sqlite3Static, pStmt: number, i: number): string {
  const { capi, wasm } = sqlite3;
  const p = Number(capi.sqlite3_column_blob(pStmt, i));
  const n = capi.sqlite3_column_bytes(pStmt, i);
  return n === 0 ? '' : decodeWtf8(wasm.heap8u().subarray(p, p + n));
}

function columnValue(sqlite3: Sqlite3Static, pStmt: number, i: number): SqlValue {
  const { capi, wasm } = sqlite3;
  switch (capi.sqlite3_column_type(pStmt, i)) {
    case capi.SQLITE_NULL:
      return null;
    case capi.SQLITE_INTEGER: {
      const v = BigInt(capi.sqlite3_column_int64(pStmt, i));
      return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
    }
    case capi.SQLITE_FLOAT:
      return capi.sqlite3_column_double(pStmt, i);
    case capi.SQLITE_TEXT:
      return columnText(sqlite3, pStmt, i);
    default: {
      const p = Number(capi.sqlite3_column_blob(pStmt, i));
      return wasm.heap8u().slice(p, p + capi.sqlite3_column_bytes(pStmt, i));
    }
  }
}

/** Every row of one statement, values bound as parameters, text read back byte for byte. */
export function queryRows(db: Database, sql: string, params: SqlParams = []): SqlRow[] {
  if (db instanceof NativeDatabase) return db.rows(sql, params);
  const sqlite3 = loadedSqlite();
  return withStatement(db, sql, params, (stmt) => {
    // getColumnNames() throws on a statement without columns (DELETE, INSERT, ...).
    const names = stmt.columnCount > 0 ? stmt.getColumnNames() : [];
    const rows: SqlRow[] = [];
    while (stmt.step()) {
      const row: SqlRow = {};
      names.forEach((name, i) => {
        row[name] = columnValue(sqlite3, stmt.pointer as unknown as number, i);
      });
      rows.push(row);
    }
    return rows;
  });
}

/** Runs one statement that returns no rows (an INSERT, an UPDATE, BEGIN, COMMIT), parameters bound. */
export function execute(db: Database, sql: string, params: SqlParams = []): void {
  if (db instanceof NativeDatabase) return db.run(sql, params);
  withStatement(db, sql, params, (stmt) => {
    while (stmt.step()) {
      /* a statement run for its effect */
    }
  });
}

/** Every statement of `sql` (DDL, a seed script), without parameters. */
export function executeScript(db: Database, sql: string): void {
  if (db instanceof NativeDatabase) db.script(sql);
  else db.exec(sql);
}

/** The WASM connection, for code that works below the row API (the sqlite3 shim); the native engine has none. */
export function wasmDatabase(db: Database): WasmDatabase {
  if (db instanceof NativeDatabase)
    throw new ProseError('E_UNSUPPORTED', 'this needs WASM SQLite; open the file on the posix or wasm engine');
  return db;
}

type Stmt = ReturnType<WasmDatabase['prepare']>;
/** Prepared statements kept per connection: parsing them again was a tenth of a binding's cost. */
const statements = new WeakMap<WasmDatabase, Map<string, Stmt>>();
const KEPT_PER_CONNECTION = 64;

/**
 * Runs `fn` on a prepared statement of `sql` with `params` bound, then resets it and keeps it for the next call on
 * this connection (closing the connection finalizes it). A statement is taken out of the cache while in use, so a
 * nested use of the same SQL prepares its own.
 */
function withStatement<T>(db: WasmDatabase, sql: string, params: SqlParams, fn: (stmt: Stmt) => T): T {
  let kept = statements.get(db);
  if (!kept) statements.set(db, (kept = new Map()));
  const stmt = kept.get(sql) ?? db.prepare(sql);
  kept.delete(sql);
  let reusable = false;
  try {
    if (Array.isArray(params) ? params.length > 0 : Object.keys(params).length > 0) stmt.bind(params as never);
    const out = fn(stmt);
    reusable = true;
    return out;
  } finally {
    try {
      stmt.reset(true);
    } catch {
      reusable = false; // the step failed: reset reports it again
    }
    if (!reusable || kept.size >= KEPT_PER_CONNECTION) stmt.finalize();
    else kept.set(sql, stmt);
  }
}

export function queryRow(db: Database, sql: string, params: SqlParams = []): SqlRow | undefined {
  return queryRows(db, sql, params)[0];
}

export function queryValue(db: Database, sql: string, params: SqlParams = []): SqlValue | undefined {
  const row = queryRow(db, sql, params);
  return row === undefined ? undefined : Object.values(row)[0];
}
