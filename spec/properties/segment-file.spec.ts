import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatSegmentFile, parseSegmentFile, type SegmentFile } from '../../src/core/formats/segment-file.ts';
import { hostileText, oneLine } from './_arbitraries.ts';

// decision segment-file-prompt: the prompt is a JSON literal, the summary verbatim to the end of the file.
const segment: fc.Arbitrary<SegmentFile> = fc
  .record({
    number: fc.integer({ min: 1, max: 99_999 }),
    timestamp: oneLine,
    prompt: hostileText,
    summary: hostileText,
  })
  .map((s) => ({ ...s }));

test('parseSegmentFile(formatSegmentFile(s)) gives s back, at every width from 3 (the parser reads \d{3,})', () => {
  fc.assert(
    fc.property(segment, fc.integer({ min: 3, max: 6 }), (s, width) => {
      assert.equal(parseSegmentFile(formatSegmentFile(s, width)), s);
    }),
    { numRuns: 300 },
  );
});

test('a segment file whose header is cut is E_FORMAT naming the file', () => {
  fc.assert(
    fc.property(segment, fc.nat(), (s, at) => {
      const text = formatSegmentFile(s, 3);
      const header = text.length - s.summary.length - 1;
      const cut = at % header;
      try {
        parseSegmentFile(text.slice(0, cut), 'agents/captain/captain-001.md');
        assert.unreachable(`a cut at ${cut} parsed`);
      } catch (err) {
        const e = err as { code?: string; location?: { file?: string } };
        assert.is(e.code, 'E_FORMAT');
        assert.is(e.location?.file, 'agents/captain/captain-001.md');
      }
    }),
    { numRuns: 200 },
  );
});

test.run();
