import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTranscriptBackend } from '../../../src/backends/in-context/in-context-factory.ts';
import { DEFAULT_DECISIONS } from '../../../src/core/decisions.ts';
import { freshFactory, runScript, snapshot, transcriptOf } from './_helpers.ts';

// The transcript is the only state: a new store given nothing but a copy of the text answers the same.
test('a store opened on a copy of the text answers what the original answers', async () => {
  const { factory, env } = freshFactory();
  const b = await factory.open(env);
  const run = await runScript(b);
  const copy = { text: String(await transcriptOf(b)) };
  const again = createTranscriptBackend(copy, DEFAULT_DECISIONS, 'verbose');
  assert.equal(await snapshot(again, run), await snapshot(b, run));
});

test('a verbose store reads a compact transcript and the other way round', async () => {
  for (const [wrote, reads] of [
    ['compact', 'verbose'],
    ['verbose', 'compact'],
  ] as const) {
    const { factory, env } = freshFactory({ dialect: wrote });
    const b = await factory.open(env);
    const run = await runScript(b);
    const other = createTranscriptBackend({ text: await transcriptOf(b) }, DEFAULT_DECISIONS, reads);
    assert.equal(await snapshot(other, run), await snapshot(b, run));
  }
});

test.run();
