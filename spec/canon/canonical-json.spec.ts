import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canonicalJson } from '../../src/canon/index.ts';
import { throwsCode } from './vectors.ts';

test('keys sorted recursively, no whitespace, arrays keep order', () => {
  assert.is(
    canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } }),
    '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
  );
});

// Decision canon-json: JS .sort() = UTF-16 code units. U+1F600 (D83D DE00) sorts before U+FF21 here,
// while code-point order would put it after.
test('keys are ordered by UTF-16 code units, not code points', () => {
  const emoji = '\u{1F600}',
    fw = '\uFF21';
  assert.is(canonicalJson({ [fw]: 1, [emoji]: 2 }), `{"${emoji}":2,"${fw}":1}`);
});

test('undefined fields are dropped by default and refused for receipt hashing', () => {
  assert.is(canonicalJson({ a: undefined, b: 1 }), '{"b":1}');
  throwsCode(() => canonicalJson({ a: undefined }, { undefinedFields: 'throw' }), 'E_FORMAT');
  throwsCode(() => canonicalJson([1, undefined]), 'E_FORMAT');
});

test('numbers and strings print exactly as JSON.stringify', () => {
  assert.is(canonicalJson([-0, 1e21, 0.1, 1e-7, 2 ** 53 + 2]), '[0,1e+21,0.1,1e-7,9007199254740994]');
  assert.is(canonicalJson('\uD800"\u2028é'), '"\\ud800\\"\u2028é"');
});

test('non-finite numbers, bigint, functions, symbols, cycles and non-plain objects are E_FORMAT', () => {
  const cyc: Record<string, unknown> = {};
  cyc.self = cyc;
  for (const v of [
    NaN,
    Infinity,
    1n,
    () => 1,
    Symbol('s'),
    new Date(0),
    new Map(),
    cyc,
    { d: new Date(0) },
    undefined,
  ]) {
    throwsCode(() => canonicalJson(v), 'E_FORMAT');
  }
  assert.is(canonicalJson(Object.create(null)), '{}');
});

test.run();
