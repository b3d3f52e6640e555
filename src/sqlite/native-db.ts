import type { SqlParams, SqlRow, SqlValue } from './sql-values.ts';
import { decodeWtf8 } from './wtf8.ts';

/** The parts of node:sqlite (Node 22.5+) the native engine uses. */
export interface NativeStatement {
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): unknown;
  columns(): { name: string }[];
  setReadBigInts(on: boolean): void;
  setReturnArrays(on: boolean): void;
}
export interface NativeConnection {
  exec(sql: string): void;
  prepare(sql: string): NativeStatement;
  close(): void;
  readonly isTransaction: boolean;
}

const KEPT_PER_CONNECTION = 64;

/**
 * A node:sqlite connection seen through our row API (rows.ts dispatches here): parameters bound as the WASM engine
 * binds them, rows shaped as it returns them, TEXT byte-exact, prepared statements kept per connection.
 */
export class NativeDatabase {
  private readonly kept = new Map<string, { stmt: NativeStatement; names: string[] }>();

  constructor(readonly raw: NativeConnection) {}

  rows(sql: string, params: SqlParams = []): SqlRow[] {
    const { stmt, names } = this.statement(sql);
    const bound = bindArgs(params);
    const arrays = stmt.all(...bound) as unknown[][];
    let lossy = false;
    const values = arrays.map((cells) =>
      cells.map((v) => {
        if (typeof v === 'string' && v.includes('\ufffd')) lossy = true;
        return cellValue(v);
      }),
    );
    if (lossy) this.exactText(sql, bound, names.length, values);
    return values.map((cells) => {
      const row: SqlRow = {};
      names.forEach((name, i) => {
        row[name] = cells[i]!;
      });
      return row;
    });
  }

  /** One statement run for its effect. */
  run(sql: string, params: SqlParams = []): void {
    this.statement(sql).stmt.run(...bindArgs(params));
  }

  /** Every statement of `sql`, no parameters (the WASM engine's `db.exec(string)`). */
  script(sql: string): void {
    this.raw.exec(sql);
  }

  /** The WASM connection's `exec` and `selectValue(s)`, for code and specs written against either engine. */
  exec(arg: string | { sql: string; bind?: SqlParams }): this {
    if (typeof arg === 'string') this.script(arg);
    else this.run(arg.sql, arg.bind);
    return this;
  }

  selectValue(sql: string, bind?: SqlParams): SqlValue | undefined {
    const row = this.rows(sql, bind)[0];
    return row === undefined ? undefined : Object.values(row)[0];
  }

  selectValues(sql: string, bind?: SqlParams): SqlValue[] {
    return this.rows(sql, bind).map((r) => Object.values(r)[0]!);
  }

  close(): void {
    this.kept.clear();
    this.raw.close();
  }

  private statement(sql: string): { stmt: NativeStatement; names: string[] } {
    let s = this.kept.get(sql);
    if (!s) {
      const stmt = this.raw.prepare(sql);
      stmt.setReadBigInts(true);
      stmt.setReturnArrays(true);
      s = { stmt, names: stmt.columns().map((c) => c.name) };
      if (this.kept.size >= KEPT_PER_CONNECTION) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(sql, s);
    }
    return s;
  }

  /**
   * node:sqlite decodes TEXT itself, so bytes that are not UTF-8 (a lone surrogate stored as WTF-8, wtf8.ts) come
   * back as U+FFFD. When a cell holds U+FFFD, the same statement runs again (same transaction, same plan) with each
   * TEXT column cast to BLOB, and those cells are decoded from their bytes. A statement that cannot be wrapped so
   * (a PRAGMA) keeps node:sqlite's decoding.
   */
  private exactText(sql: string, bound: unknown[], width: number, values: SqlValue[][]): void {
    const cols = Array.from({ length: width }, (_, i) => `c${i}`);
    const body = sql.trim().replace(/;+\s*$/, '');
    const asBlobs = cols.map((c) => `CASE typeof(${c}) WHEN 'text' THEN CAST(${c} AS BLOB) END`).join(', ');
    const wrapped = `WITH q(${cols.join(', ')}) AS (${body}\n) SELECT ${asBlobs} FROM q`;
    let exact: unknown[][];
    try {
      const stmt = this.raw.prepare(wrapped);
      stmt.setReturnArrays(true);
      exact = stmt.all(...bound) as unknown[][];
    } catch {
      return;
    }
    if (exact.length !== values.length) return;
    exact.forEach((cells, r) =>
      cells.forEach((b, i) => {
        if (b instanceof Uint8Array && typeof values[r]![i] === 'string') values[r]![i] = decodeWtf8(b);
      }),
    );
  }
}

/** As the WASM engine reads them: integers as numbers where safe, else bigint. */
function cellValue(v: unknown): SqlValue {
  if (typeof v === 'bigint')
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  return v as SqlValue;
}

/**
 * As the WASM engine binds them: node:sqlite binds every JS number as REAL (a 5 stored in a TEXT column would read
 * "5.0"), so whole numbers go as integers; booleans as 1/0; undefined as NULL.
 */
function bindArgs(params: SqlParams): unknown[] {
  if (!Array.isArray(params)) {
    const named: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(params)) named[k] = bindValue(v);
    return [named];
  }
  return params.map(bindValue);
}

function bindValue(v: unknown): unknown {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? BigInt(v) : v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  return v === undefined ? null : v;
}
