import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkTranscript } from '../../../src/verify/transcript/check-transcript.ts';
import { TRANSCRIPT_RULES } from '../../../src/verify/transcript/transcript-rules.ts';
import { mutatedTranscript } from '../_mutations.ts';

// Every rule a finding can carry is in the rules table, and every rule in the table is documented.
const ids = new Set(Object.keys(TRANSCRIPT_RULES));

test('findings only use rules of the table', () => {
  fc.assert(
    fc.property(mutatedTranscript, (text) => {
      for (const f of checkTranscript(text)) assert.ok(ids.has(f.rule), f.rule);
    }),
    { numRuns: 300 },
  );
});

test('docs/in-context.md lists every rule', () => {
  const doc = readFileSync(new URL('../../../docs/in-context.md', import.meta.url), 'utf8');
  for (const id of ids) assert.ok(doc.includes(`| \`${id}\` |`), `${id} is not in docs/in-context.md`);
});

test.run();
