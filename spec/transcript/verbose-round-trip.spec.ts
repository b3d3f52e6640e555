import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTranscript } from '../../src/transcript/parse-transcript.ts';
import type { NarrationEvent } from '../../src/transcript/narration-event.ts';
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

// Found by fast-check (seed 592472136): an argument named `__proto__` set the prototype of the parsed object and was lost.
test('an argument named __proto__ is a key like any other', () => {
  const event = JSON.parse(
    '{"kind":"frame-enter","executionId":4,"block":"b","parent":5,"depth":3,"args":{"__proto__":"","x":"1"}}',
  ) as NarrationEvent;
  const r = parseTranscript(writeVerbose(event), { dialect: 'verbose' });
  assert.equal(r.events.map(strip), [event]);
  assert.equal(Object.keys((r.events[0] as { args: object }).args), ['__proto__', 'x']);
});

test.run();
