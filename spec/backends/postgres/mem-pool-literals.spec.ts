import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newDb } from 'pg-mem';
import { parse } from 'pgsql-ast-parser';
import { MemPool, withValues } from '../../../src/backends/postgres/mem-pool.ts';
import { inlineParams, type SqlValue } from '../../../src/backends/postgres/sql-literal.ts';

// Issue 35: on pg-mem each statement text is parsed once and its values are put into the parsed statement
// (mem-pool.ts). What pg-mem runs must be what it ran when the values were written into the text as literals.

const VALUES: SqlValue[] = [
  `it's \\ a \\' back\\slash and ''quotes''`,
  `$1 $2 $$ dollar $q$ quoting $q$`,
  'line1\r\nline2\ttab 😀 é \u2028',
  0,
  -1,
  42,
  2.5,
  true,
  false,
  null,
  { type: 'statement', text: 'say "hi"\\n', nested: [1, 'two', null] },
];

test('each value is the literal the inlined text would have parsed to', () => {
  const template = `SELECT ${VALUES.map((_, i) => `$${i + 1}`).join(', ')}, $11::jsonb`;
  assert.equal(withValues(parse(template), VALUES), parse(inlineParams(template, VALUES)));
});

test('a statement of the store, with casts, CASE and RETURNING, parses the same both ways', () => {
  const template =
    'INSERT INTO t (a, b, c, d) VALUES ($1, $2::timestamptz, CASE WHEN $3::boolean THEN now() ELSE NULL END, $4::jsonb) ' +
    'ON CONFLICT (a) DO UPDATE SET b = EXCLUDED.b WHERE t.a <> $1 RETURNING a';
  const values: SqlValue[] = ['x\\y', '2026-01-16T14:30:52Z', true, { k: "it's" }];
  assert.equal(withValues(parse(template), values), parse(inlineParams(template, values)));
});

test('the parsed statement is not changed by a call: the next call gets its own values', () => {
  const parsed = parse('SELECT $1 AS v');
  const before = JSON.stringify(parsed);
  withValues(parsed, ['first']);
  assert.is(JSON.stringify(parsed), before);
});

test('a missing parameter is refused, as inlining refuses it', () => {
  assert.throws(() => withValues(parse('SELECT $2'), ['only one']), /refers to \$2 but has 1/);
});

test('values round-trip through pg-mem exactly', async () => {
  const pool = new MemPool(newDb());
  await pool.query('CREATE TABLE t (id INTEGER, body TEXT, doc JSONB)');
  for (const [i, v] of VALUES.entries()) {
    const body = typeof v === 'string' ? v : JSON.stringify(v);
    await pool.query('INSERT INTO t (id, body, doc) VALUES ($1, $2, $3::jsonb)', [i, body, { v }]);
    const { rows } = (await pool.query('SELECT body, doc FROM t WHERE id = $1', [i])) as { rows: unknown[] };
    assert.equal(rows, [{ body, doc: { v } }], JSON.stringify(v));
  }
});

test.run();
