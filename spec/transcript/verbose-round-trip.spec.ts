import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTranscript } from '../../src/transcript/parse-transcript.ts';
import { writeVerbose } from '../../src/transcript/write-verbose.ts';
import { strip } from './_strip.ts';
import { storeEvents } from './_arbitraries.ts';

// What the store writes in the verbose dialect reads back as exactly the same events, whatever the text holds.
test('writeVerbose then parseTranscript gives the events back', () => {
  fc.assert(
    fc.property(storeEvents, (events) => {
      const text = events.map((e) => writeVerbose(e)).join('');
      const r = parseTranscript(text, { dialect: 'verbose' });
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
