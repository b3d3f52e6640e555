import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkTranscript } from '../../../src/verify/transcript/check-transcript.ts';
import { mutatedTranscript } from '../_mutations.ts';

// The verifier answers findings for any text, each on a real line; it never throws.
test('random edits of transcripts never crash the verifier', () => {
  fc.assert(
    fc.property(mutatedTranscript, (text) => {
      const lines = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
      for (const f of checkTranscript(text, 't.txt')) {
        assert.ok(f.line !== undefined && f.line >= 1 && f.line <= lines, `${f.rule} at line ${f.line} of ${lines}`);
        assert.ok(f.severity === 'error' || f.severity === 'warning');
      }
    }),
    { numRuns: 1000 },
  );
});

test.run();
