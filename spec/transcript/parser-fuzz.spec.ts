import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTranscript } from '../../src/transcript/parse-transcript.ts';
import { mutatedTranscript } from './_mutations.ts';

// The parser never throws on bad input; every diagnostic and event points at a line that exists.
test('random edits of valid transcripts never crash the parser', () => {
  fc.assert(
    fc.property(mutatedTranscript, fc.constantFrom('auto', 'verbose', 'compact' as const), (text, dialect) => {
      const r = parseTranscript(text, { dialect });
      for (const d of r.diagnostics) {
        assert.ok(
          Number.isInteger(d.line) && d.line >= 1 && d.line <= r.lineCount,
          `diagnostic line ${d.line} of ${r.lineCount}`,
        );
        assert.ok(Number.isInteger(d.column) && d.column >= 1, `diagnostic column ${d.column}`);
        assert.ok(d.rule.startsWith('parse.'), d.rule);
      }
      for (const e of r.events) assert.ok(e.line >= 1 && e.line <= r.lineCount, `event line ${e.line}`);
    }),
    { numRuns: 1500 },
  );
});

test('a transcript cut in the middle of a value is reported as truncated on its last line', () => {
  const r = parseTranscript('[Program] Program Start\n[Binding] let x = "half a va');
  assert.equal(
    r.diagnostics.map((d) => [d.rule, d.line]),
    [['parse.truncated', 2]],
  );
});

test.run();
