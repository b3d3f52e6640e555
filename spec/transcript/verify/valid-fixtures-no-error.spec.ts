import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkTranscript } from '../../../src/verify/transcript/check-transcript.ts';

// The seed's own examples (in-context.md verbatim) and our compact runs break no rule.
const dir = new URL('../../fixtures/transcripts/valid/', import.meta.url);

for (const name of readdirSync(dir)) {
  test(`${name} has no findings`, () => {
    assert.equal(checkTranscript(readFileSync(new URL(name, dir), 'utf8'), name), []);
  });
}

test.run();
