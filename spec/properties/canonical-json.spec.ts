import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canonicalJson } from '../../src/canon/canonical-json.ts';
import { shuffled } from './_arbitraries.ts';

// decision canon-json: sorted keys, no white space, JSON.stringify's strings and numbers.
const json = fc.jsonValue({ maxDepth: 4 });

/** The same JSON value rebuilt with every object's keys inserted in another order. */
function reinsert(v: unknown, seed: number): unknown {
  if (Array.isArray(v)) return v.map((x, i) => reinsert(x, seed + i + 1));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of shuffled(Object.keys(v), seed)) {
      Object.defineProperty(out, k, {
        value: reinsert((v as Record<string, unknown>)[k], seed * 31 + k.length),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return v;
}

test('JSON.parse(canonicalJson(x)) deep-equals x for JSON values', () => {
  fc.assert(
    fc.property(json, (x) => {
      assert.equal(JSON.parse(canonicalJson(x)), x);
    }),
    { numRuns: 300 },
  );
});

test('key insertion order never changes the bytes', () => {
  fc.assert(
    fc.property(json, fc.integer(), (x, seed) => {
      assert.is(canonicalJson(reinsert(x, seed)), canonicalJson(x));
    }),
    { numRuns: 300 },
  );
});

test('canonical JSON is a fixed point: canonicalJson(JSON.parse(c)) === c', () => {
  fc.assert(
    fc.property(json, (x) => {
      const c = canonicalJson(x);
      assert.is(canonicalJson(JSON.parse(c)), c);
      assert.not.match(c, /\n/);
    }),
    { numRuns: 300 },
  );
});

test('hostile keys (astral, U+E000-U+FFFF, lone surrogates, __proto__-like) keep their order by UTF-16 code units', () => {
  const key = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 4 }),
    fc.constantFrom('\uD83D\uDE00', '\uFF21', '\uE000', '\uD800', '', 'constructor', '__proto__x'),
  );
  fc.assert(
    fc.property(fc.uniqueArray(key, { maxLength: 8 }), fc.integer(), (keys, seed) => {
      const obj: Record<string, number> = {};
      for (const [i, k] of shuffled(keys, seed).entries())
        Object.defineProperty(obj, k, { value: i, enumerable: true });
      const c = canonicalJson(obj);
      const expected = `{${[...keys]
        .sort()
        .map((k) => `${JSON.stringify(k)}:${obj[k]}`)
        .join(',')}}`;
      assert.is(c, expected);
    }),
    { numRuns: 200 },
  );
});

test.run();
