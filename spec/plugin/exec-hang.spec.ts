import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { brokenBind } from './fixtures/broken-call.ts';

test('a plugin that never answers: E_PLUGIN after the per-request timeout, no hang', async () => {
  const err = await brokenBind('hang', 400);
  assert.match(err.message, 'no reply to call bind (seq 3) within 400 ms');
});

test('a reply cut off without its newline is quoted as evidence', async () => {
  const err = await brokenBind('partial-line', 400);
  assert.is(err.evidence.received, '{"type":"result"');
});

test.run();
