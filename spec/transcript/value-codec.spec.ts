import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeValue, encodeText } from '../../src/transcript/value-codec.ts';

// Values sit in narration as one-line JSON string literals (decision in-context-value-encoding).
test('any string encodes to one line and decodes exactly', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (s) => {
      const enc = encodeText(s);
      assert.not.match(enc, /[\n\r\u0085\u2028\u2029]/);
      assert.equal(decodeValue(enc), { value: s, exact: true });
    }),
    { numRuns: 2000 },
  );
});

test("the seed's raw values are read but not exact", () => {
  assert.equal(decodeValue('{message: "connection timeout"}'), {
    value: '{message: "connection timeout"}',
    exact: false,
  });
});

test.run();
