import type { IMemoryDb } from 'pg-mem';
import { parse, type Expr, type Statement } from 'pgsql-ast-parser';
import { ProseError } from '../../core/errors.ts';
import type { PoolLike } from './pg-db.ts';
import { checkStorableText, type SqlValue } from './sql-literal.ts';

/** Distinct statement texts kept parsed; ours are a few dozen, so the bound only guards against a caller's variety. */
const PARSED_MAX = 500;

/**
 * A pool on one pg-mem database that parses each statement TEXT once and puts the parameters into the parsed
 * statement as the literals sql-literal.ts would write (a string, a number, a boolean, NULL, JSON as text).
 * pg's adapter for pg-mem instead writes the values into the text, so every call was a new text for pg-mem's
 * parser: more than half of a growing run's time went to parsing (issue 35), the longer the value the longer.
 * It also keeps pg-mem's own substitution away from our text values (pg-db.ts says how that one misreads them).
 */
export class MemPool implements PoolLike {
  readonly literalValues = true;
  private readonly parsed = new Map<string, Statement[]>();

  constructor(private readonly mem: IMemoryDb) {}

  query(text: string, values?: unknown[]): Promise<unknown> {
    // Answered after a turn of the event loop, as pg's adapter for pg-mem does: callers may rely on it.
    return new Promise((resolve, reject) => {
      let result: { rows: unknown[] };
      try {
        const statements = values?.length ? withValues(this.statements(text), values as SqlValue[]) : text;
        result = this.mem.public.query(statements);
      } catch (err) {
        setImmediate(() => reject(err));
        return;
      }
      // Rows are copied, as the adapter does, so nothing of pg-mem's (its symbols) leaks to the caller.
      setImmediate(() => resolve({ rows: result.rows.map((r) => ({ ...(r as object) })) }));
    });
  }

  async end(): Promise<void> {}

  private statements(text: string): Statement[] {
    let got = this.parsed.get(text);
    if (!got) {
      if (this.parsed.size >= PARSED_MAX) this.parsed.clear();
      this.parsed.set(text, (got = parse(text)));
    }
    return got;
  }
}

/** `statements` with each `$n` replaced by the literal of values[n-1]; the parsed statements are not changed. */
export function withValues(statements: readonly Statement[], values: readonly SqlValue[]): Statement[] {
  return statements.map((s) => substitute(s, values) as Statement);
}

/**
 * A copy of `node` with its parameters replaced, every other field kept as the parser made it (its own mapper
 * drops a few null fields; pg-mem must see exactly what it would have parsed from the literal).
 */
function substitute(node: unknown, values: readonly SqlValue[]): unknown {
  if (Array.isArray(node)) return node.map((n) => substitute(n, values));
  if (node === null || typeof node !== 'object') return node;
  const n = node as { type?: unknown; name?: unknown };
  if (n.type === 'parameter' && typeof n.name === 'string') {
    const i = Number(n.name.slice(1)) - 1;
    if (!(i >= 0 && i < values.length))
      throw new ProseError('E_BACKEND', `statement refers to ${n.name} but has ${values.length} parameters`);
    return literal(values[i]!);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = substitute(v, values);
  return out;
}

/** The parsed form of the literal sqlLiteral() writes for `value`. */
function literal(value: SqlValue): Expr {
  if (value === null) return { type: 'null' };
  if (typeof value === 'boolean') return { type: 'boolean', value };
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ProseError('E_INVALID_ARGUMENT', `cannot store the number ${value}`);
    return Number.isInteger(value) ? { type: 'integer', value } : { type: 'numeric', value };
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return { type: 'string', value: checkStorableText('value', text) };
}
