import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatReal20 } from '../../../src/backends/sqlite/shim/format-real.ts';
import { cli } from './helpers.ts';

test('REAL values in -json output carry the same 20 digits as sqlite3 3.40 (x87 long double arithmetic)', () => {
  // Doubles SQLite and JavaScript compute identically: 1.0 * x / y with |x| < 2^53, one correctly rounded division.
  const pairs = fc.sample(
    fc.tuple(fc.maxSafeInteger(), fc.integer({ min: 1, max: 2 ** 31 }), fc.integer({ min: -30, max: 30 })),
    { numRuns: 400, seed: 42 },
  );
  const values = pairs.map(([x, y, p]) => ({ sql: `1.0 * ${x} / ${y} * 1e${p}`, js: (x / y) * Number(`1e${p}`) }));
  const edge: [string, number][] = [
    ['0.1', 0.1],
    ['0.3', 0.3],
    ['2.0 / 3', 2 / 3],
    ['1e20', 1e20],
    ['1e19', 1e19],
    ['2.5e-7', 2.5e-7],
    ['5e-324', 5e-324],
    ['1.7976931348623157e308', 1.7976931348623157e308],
    ['-1e-5', -1e-5],
    ['123456.789', 123456.789],
    ['0.0001', 0.0001],
    ['0.0', 0],
  ];
  const sql = [...values.map((v) => v.sql), ...edge.map(([e]) => e)]
    .map((e, i) => `SELECT ${e} AS v${i % 2}`)
    .join(' UNION ALL ');
  const out = cli(['-json', ':memory:', sql]);
  assert.is(out.status, 0, out.stderr);
  const printed = out.stdout
    .trim()
    .replace(/^\[/, '')
    .replace(/\]$/, '')
    .split(',\n')
    .map((row) => row.slice(row.indexOf(':') + 1, -1));
  const expected = [...values.map((v) => v.js), ...edge.map(([, x]) => x)];
  assert.is(printed.length, expected.length);
  expected.forEach((x, i) => assert.is(formatReal20(x), printed[i], `value ${i}: ${x}`));
});

test.run();
