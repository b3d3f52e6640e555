import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTranscript } from '../../src/transcript/parse-transcript.ts';

// A transcript saved on Windows (CRLF, a byte-order mark) reads exactly as the same text with LF.
test('CRLF line endings and a leading BOM change nothing', () => {
  const lf = readFileSync(new URL('../fixtures/transcripts/valid/seed-block-invocation.txt', import.meta.url), 'utf8');
  const crlf = '\uFEFF' + lf.replace(/\n/g, '\r\n');
  const a = parseTranscript(lf);
  const b = parseTranscript(crlf);
  assert.equal(b.diagnostics, []);
  assert.equal(b.events, a.events);
});

test.run();
