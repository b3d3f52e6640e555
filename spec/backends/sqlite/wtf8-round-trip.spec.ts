import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeWtf8, encodeWtf8 } from '../../../src/sqlite/index.ts';

test('any JavaScript string, lone surrogates included, survives WTF-8; well-formed text is plain UTF-8', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
      const bytes = encodeWtf8(s);
      assert.is(decodeWtf8(bytes), s);
      if (s.isWellFormed()) assert.equal([...bytes], [...Buffer.from(s, 'utf8')]);
    }),
    { numRuns: 3000 },
  );
  assert.equal([...encodeWtf8('a\ud800b')], [0x61, 0xed, 0xa0, 0x80, 0x62]);
  assert.is(decodeWtf8(Uint8Array.from([0xff, 0x61])), '\ufffda', 'other invalid bytes still read as U+FFFD');
});

test.run();
