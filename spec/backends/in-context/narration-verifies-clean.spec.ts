import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkTranscript } from '../../../src/verify/transcript/check-transcript.ts';
import { parseTranscript } from '../../../src/transcript/parse-transcript.ts';
import { freshFactory, runScript, transcriptOf } from './_helpers.ts';

// What the backend says is narration the transcript verifier accepts: the store and the checker agree on the protocol.
for (const dialect of ['verbose', 'compact'] as const) {
  test(`${dialect}: the store's transcript parses cleanly and breaks no rule`, async () => {
    const { factory, env } = freshFactory({ dialect });
    const b = await factory.open(env);
    await runScript(b);
    const text = await transcriptOf(b);
    assert.equal(parseTranscript(text).diagnostics, []);
    assert.equal(checkTranscript(text), []);
  });
}

test.run();
