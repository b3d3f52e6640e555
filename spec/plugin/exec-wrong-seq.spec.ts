import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { brokenBind } from './fixtures/broken-call.ts';

test('a reply echoing the wrong seq: E_PLUGIN naming both seqs', async () => {
  const err = await brokenBind('wrong-seq');
  assert.match(err.message, 'answered seq 103');
  assert.match(err.message, 'waiting: call bind (seq 3)');
  assert.is(err.location?.field, 'seq');
});

test.run();
