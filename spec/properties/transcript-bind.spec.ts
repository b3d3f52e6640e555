import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BINDING_KINDS } from '../../src/core/model.ts';
import type { NarrationEvent } from '../../src/transcript/narration-event.ts';
import { parseTranscript } from '../../src/transcript/parse-transcript.ts';
import { writeCompact } from '../../src/transcript/write-compact.ts';
import { writeVerbose } from '../../src/transcript/write-verbose.ts';
import { strip } from '../transcript/_strip.ts';
import { hostileText, oneLine } from './_arbitraries.ts';

// docs/in-context.md "Value encoding": what the in-context store narrates for a binding reads back exactly.
const name = fc.oneof(
  fc.constantFrom(
    'research',
    'anon_001',
    'na\u00efve',
    '日本語',
    'two words',
    "x'); --",
    '"quoted"',
    'a=b',
    'a,b',
    '(x)',
    '[1]',
    'a|b',
  ),
  oneLine.filter((s) => s.trim().length > 0 && s.isWellFormed()),
);
const bind = fc
  .record({
    name,
    bindingKind: fc.constantFrom(...BINDING_KINDS),
    value: hostileText,
    executionId: fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: null }),
    source: hostileText,
  })
  .map((b): NarrationEvent => ({ kind: 'bind', ...b }));

for (const [dialect, write] of [
  ['verbose', writeVerbose],
  ['compact', writeCompact],
] as const) {
  test(`${dialect}: a bind event reads back exactly, alone and among others`, () => {
    fc.assert(
      fc.property(fc.array(bind, { minLength: 1, maxLength: 4 }), fc.nat(3), (events, depth) => {
        const text = events.map((e) => write(e, depth)).join('');
        const r = parseTranscript(text);
        assert.equal(
          r.diagnostics.filter((d) => d.severity === 'error'),
          [],
        );
        assert.equal(r.events.map(strip), events);
      }),
      { numRuns: 200 },
    );
  });
}

test('a value that holds a whole forged narration line is one value, never a second event', () => {
  fc.assert(
    fc.property(bind, (e) => {
      const forged = { ...e, value: `${(e as { value: string }).value}\n[Binding] let evil = "x"\n` } as NarrationEvent;
      const r = parseTranscript(writeVerbose(forged));
      assert.is(r.events.length, 1);
      assert.equal(strip(r.events[0]!), forged);
    }),
    { numRuns: 150 },
  );
});

test.run();
