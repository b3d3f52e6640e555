import { columnText, type WasmDatabase as Database, type Sqlite3Static } from '../../../sqlite/index.ts';
import { formatReal20 } from './format-real.ts';

export type OutputMode = 'list' | 'json';

export interface RunSqlOptions {
  mode: OutputMode;
  header: boolean;
  separator: string;
  out: (text: string) => void;
}

/** What the sqlite3 CLI (3.40) would print to stderr and exit with; `undefined` when every statement ran. */
export interface SqlFailure {
  message: string;
  exitCode: number;
}

const IS_SPACE = new Set([0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d]);

/**
 * Runs every statement of `sql` in order, printing results the way `sqlite3` 3.40's shell_exec does (list mode:
 * `|`-separated text; json mode: `[{...},\n{...}]` per statement), and stops at the first error with the CLI's own
 * message ("in prepare, ..." / "stepping, ...", " (rc)" when rc > 1, and the "^--- error here" context lines).
 */
export function runSql(sqlite3: Sqlite3Static, db: Database, sql: string, opts: RunSqlOptions): SqlFailure | undefined {
  const { capi } = sqlite3;
  let failed: SqlFailure | undefined;
  eachStatement(sqlite3, db, sql, (rc, pStmt, rest) => {
    if (rc !== 0) {
      failed = failure(capi, db, 'in prepare', rc, rest);
      return false;
    }
    const err = stepAll(sqlite3, pStmt, opts);
    if (err !== 0) failed = failure(capi, db, 'stepping', err, rest);
    return err === 0;
  });
  return failed;
}

/**
 * True when every statement of `sql` prepares now and only reads, so the shim can run it without the write lock.
 * A statement that does not prepare yet (it needs a table an earlier one creates) counts as a write.
 */
export function isReadOnlySql(sqlite3: Sqlite3Static, db: Database, sql: string): boolean {
  let ro = true;
  eachStatement(sqlite3, db, sql, (rc, pStmt) => {
    ro = rc === 0 && !!sqlite3.capi.sqlite3_stmt_readonly(pStmt);
    return ro;
  });
  return ro;
}

/** The pointer helpers of the WASM build that its published types leave out. */
interface WasmPtr {
  ptr: { size: number; add(p: number, n: number): number };
  scopedAllocPush(): unknown;
  scopedAllocPop(s: unknown): void;
  scopedAlloc(n: number): number;
  heap8u(): Uint8Array;
  poke8(p: number, v: number): void;
  pokePtr(p: number[], v: number): void;
  peekPtr(p: number): number;
}

/**
 * Prepares the statements of `sql` one after another (as shell_exec does), calling `visit` with the prepare result
 * code, the statement (finalized after the visit) and the SQL from the statement on; `visit` returns false to stop.
 */
function eachStatement(
  sqlite3: Sqlite3Static,
  db: Database,
  sql: string,
  visit: (rc: number, pStmt: number, rest: Buffer) => boolean,
): void {
  const capi = sqlite3.capi as unknown as Record<string, (...a: unknown[]) => number>;
  const wasm = sqlite3.wasm as unknown as WasmPtr;
  const bytes = Buffer.from(sql, 'utf8');
  const stack = wasm.scopedAllocPush();
  try {
    const ppStmt = wasm.scopedAlloc(2 * wasm.ptr.size + bytes.length + 1);
    const pzTail = wasm.ptr.add(ppStmt, wasm.ptr.size);
    const base = wasm.ptr.add(pzTail, wasm.ptr.size);
    wasm.heap8u().set(bytes, Number(base));
    wasm.poke8(wasm.ptr.add(base, bytes.length), 0);
    let off = 0;
    while (off < bytes.length) {
      wasm.pokePtr([ppStmt, pzTail], 0);
      const rc = capi.sqlite3_prepare_v3!(db.pointer, wasm.ptr.add(base, off), bytes.length - off, 0, ppStmt, pzTail);
      if (rc !== 0) {
        visit(rc, 0, bytes.subarray(off));
        return;
      }
      const pStmt = wasm.peekPtr(ppStmt);
      const next = Number(wasm.peekPtr(pzTail)) - Number(base);
      if (pStmt) {
        let go: boolean;
        try {
          go = visit(0, pStmt, bytes.subarray(off));
        } finally {
          capi.sqlite3_finalize!(pStmt);
        }
        if (!go) return;
      }
      off = next;
      // The CLI skips white space between statements (not before the first) before it reports error context.
      while (off < bytes.length && IS_SPACE.has(bytes[off]!)) off++;
    }
  } finally {
    wasm.scopedAllocPop(stack);
  }
}

function stepAll(sqlite3: Sqlite3Static, pStmt: number, opts: RunSqlOptions): number {
  const { capi } = sqlite3;
  const n = capi.sqlite3_column_count(pStmt);
  const names = Array.from({ length: n }, (_, i) => capi.sqlite3_column_name(pStmt, i) ?? '');
  let rows = 0;
  for (;;) {
    const rc = capi.sqlite3_step(pStmt);
    if (rc === capi.SQLITE_DONE) break;
    if (rc !== capi.SQLITE_ROW) {
      if (rows > 0 && opts.mode === 'json') opts.out(']\n');
      return rc & 0xff;
    }
    if (n === 0) continue;
    if (opts.mode === 'json') {
      opts.out(rows === 0 ? '[{' : ',\n{');
      opts.out(names.map((name, i) => `${jsonString(name)}:${jsonValue(sqlite3, pStmt, i)}`).join(',') + '}');
    } else {
      if (rows === 0 && opts.header) opts.out(names.join(opts.separator) + '\n');
      opts.out(Array.from({ length: n }, (_, i) => listValue(sqlite3, pStmt, i)).join(opts.separator) + '\n');
    }
    rows++;
  }
  if (rows > 0 && opts.mode === 'json') opts.out(']\n');
  return 0;
}

function listValue(sqlite3: Sqlite3Static, pStmt: number, i: number): string {
  const { capi } = sqlite3;
  if (capi.sqlite3_column_type(pStmt, i) === capi.SQLITE_NULL) return '';
  // The CLI prints sqlite3_column_text, so SQLite's own number formatting (%!.15g) comes for free.
  return columnText(sqlite3, pStmt, i);
}

function jsonValue(sqlite3: Sqlite3Static, pStmt: number, i: number): string {
  const { capi, wasm } = sqlite3;
  switch (capi.sqlite3_column_type(pStmt, i)) {
    case capi.SQLITE_NULL:
      return 'null';
    case capi.SQLITE_FLOAT: {
      const r = capi.sqlite3_column_double(pStmt, i);
      if (r === Infinity) return '1e999';
      if (r === -Infinity) return '-1e999';
      return formatReal20(r);
    }
    case capi.SQLITE_BLOB: {
      const p = capi.sqlite3_column_blob(pStmt, i);
      const len = capi.sqlite3_column_bytes(pStmt, i);
      return jsonString(Buffer.from(wasm.heap8u().slice(Number(p), Number(p) + len)).toString('utf8'));
    }
    case capi.SQLITE_TEXT:
      return jsonString(columnText(sqlite3, pStmt, i));
    default:
      return capi.sqlite3_column_text(pStmt, i) ?? '';
  }
}

/** output_json_string of shell.c: only `"`, `\` and control characters are escaped. */
export function jsonString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c <= 0x1f) {
      out +=
        ch === '\b'
          ? '\\b'
          : ch === '\f'
            ? '\\f'
            : ch === '\n'
              ? '\\n'
              : ch === '\r'
                ? '\\r'
                : ch === '\t'
                  ? '\\t'
                  : `\\u${c.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return out + '"';
}

function failure(capi: Sqlite3Static['capi'], db: Database, phase: string, rc: number, sql: Buffer): SqlFailure {
  const code = rc & 0xff;
  const message = `${phase}, ${capi.sqlite3_errmsg(db.pointer!)}${code > 1 ? ` (${code})` : ''}${errorContext(capi.sqlite3_error_offset(db.pointer!), sql)}`;
  return { message, exitCode: code };
}

/** shell_error_context of shell.c 3.40: up to 78 bytes of the statement and a caret under the error offset. */
function errorContext(offset: number, sql: Buffer): string {
  if (offset < 0) return '';
  let start = 0;
  while (offset > 50) {
    offset--;
    start++;
    while ((sql[start]! & 0xc0) === 0x80) {
      start++;
      offset--;
    }
  }
  let len = sql.length - start;
  if (len > 78) {
    len = 78;
    while ((sql[start + len]! & 0xc0) === 0x80) len--;
  }
  const code = Buffer.from(sql.subarray(start, start + len));
  for (let i = 0; i < code.length; i++) if (IS_SPACE.has(code[i]!)) code[i] = 0x20;
  const text = code.toString('utf8');
  return offset < 25
    ? `\n  ${text}\n  ${' '.repeat(offset)}^--- error here`
    : `\n  ${text}\n  ${' '.repeat(offset - 14)}error here ---^`;
}
