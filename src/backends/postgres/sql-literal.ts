import { ProseError } from '../../core/errors.ts';

/** A value a query may carry: inlined literals and bound parameters take the same kinds. */
export type SqlValue = string | number | boolean | null | Record<string, unknown> | unknown[];

/**
 * One value as a SQL literal, for the multi-statement strings that make a write atomic on pg-mem (which ignores
 * BEGIN/ROLLBACK sent as separate queries). A standard string literal: quotes doubled, backslashes literal. That
 * is exact only with standard_conforming_strings=on, which pg-mem always behaves as and which every real-server
 * connection forces at startup (postgres-url-factory.ts) and checks. pg's `escapeLiteral` is not used: pg-mem
 * misreads the E'' literals it makes for text holding both a quote and a backslash.
 */
export function sqlLiteral(value: SqlValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ProseError('E_INVALID_ARGUMENT', `cannot store the number ${value}`);
    return String(value);
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  checkStorableText('value', text);
  return `'${text.replaceAll("'", "''")}'`;
}

/** Replaces $1..$n in `sql` (our own statement text, which holds no `$` in literals) with literals. */
export function inlineParams(sql: string, params: readonly SqlValue[] = []): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => {
    const i = Number(n) - 1;
    if (i < 0 || i >= params.length)
      throw new ProseError('E_BACKEND', `statement refers to $${n} but has ${params.length} parameters`);
    return sqlLiteral(params[i]!);
  });
}

/**
 * PostgreSQL text cannot hold U+0000 (a real server answers 22021) while pg-mem stores it: refusing it here keeps
 * one meaning on both engines (docs/decisions.md `pg-nul`).
 */
export function checkStorableText(field: string, text: string): string {
  if (text.includes('\u0000')) {
    throw new ProseError('E_INVALID_ARGUMENT', `${field} contains U+0000 (NUL), which PostgreSQL text cannot store`, {
      location: { field },
      hint: 'remove the NUL characters, or use the filesystem backend for binary-like values',
    });
  }
  return text;
}
