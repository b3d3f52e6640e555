import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTranscript } from '../../src/transcript/parse-transcript.ts';
import { writeCompact } from '../../src/transcript/write-compact.ts';
import { strip } from './_strip.ts';
import { storeEvents } from './_arbitraries.ts';

// The compact dialect, with its trailing lists, is as exact as the verbose one.
test('writeCompact then parseTranscript gives the events back', () => {
  fc.assert(
    fc.property(storeEvents, (events) => {
      const text = events.map((e) => writeCompact(e)).join('');
      const r = parseTranscript(text);
      assert.equal(
        r.diagnostics.filter((d) => d.rule !== 'parse.nesting'),
        [],
      );
      assert.equal(r.events.map(strip), events);
    }),
    { numRuns: 300 },
  );
});

test.run();
