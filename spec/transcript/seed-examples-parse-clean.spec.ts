import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTranscript } from '../../src/transcript/parse-transcript.ts';

// The seed's own narration (in-context.md, verbatim) and our compact fixtures parse with no diagnostic at all.
const dir = new URL('../fixtures/transcripts/valid/', import.meta.url);

for (const name of readdirSync(dir)) {
  test(`${name} parses without diagnostics`, () => {
    const r = parseTranscript(readFileSync(new URL(name, dir), 'utf8'));
    assert.equal(r.diagnostics, []);
    assert.ok(r.events.length > 0, 'it carries events');
    assert.is(r.dialect, name.startsWith('compact') ? 'compact' : 'verbose');
  });
}

test('the Complete Execution Trace reads as the seed describes it', () => {
  const r = parseTranscript(readFileSync(new URL('seed-complete-trace.txt', dir), 'utf8'));
  const kinds = r.events.map((e) => e.kind);
  assert.ok(kinds.includes('parallel-join'));
  const its = r.events.filter((e) => e.kind === 'loop-iteration');
  assert.equal(
    its.map((e) => [e.line, e.kind === 'loop-iteration' && e.iteration]),
    [
      [23, 1],
      [30, 2],
    ],
  );
  const exit = r.events.find((e) => e.kind === 'loop-exit');
  assert.is(exit?.line, 37);
});

test.run();
