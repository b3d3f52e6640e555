import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VM } from '../../../src/core/actor.ts';
import { createTranscriptBackend } from '../../../src/backends/in-context/in-context-factory.ts';
import { DEFAULT_DECISIONS } from '../../../src/core/decisions.ts';

// A transcript cut in the middle of a line is not ours to guess at: reads answer E_CORRUPT with the line.
test('a cut transcript answers E_CORRUPT naming the line', async () => {
  const text =
    '[Program] Program Start (run: 20260115-143052-a7b3c9, started: 2026-01-15T14:30:52Z)\n   Program: "p"\n[Binding] let x = "cut he';
  const b = createTranscriptBackend({ text }, DEFAULT_DECISIONS, 'verbose');
  try {
    await b.call('getRun', { run: '20260115-143052-a7b3c9' }, VM);
    assert.unreachable('should refuse');
  } catch (err) {
    const e = err as { code: string; location?: { line?: number } };
    assert.is(e.code, 'E_CORRUPT');
    assert.is(e.location?.line, 3);
  }
});

test.run();
