import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { brokenBind } from './fixtures/broken-call.ts';

test('a line that is not JSON: E_PLUGIN quoting the line', async () => {
  const err = await brokenBind('garble');
  assert.match(err.message, 'not JSON');
  assert.is(err.evidence.received, 'this is not json {');
});

test.run();
