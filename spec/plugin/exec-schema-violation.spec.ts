import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { brokenBind } from './fixtures/broken-call.ts';

test('a reply failing the schema: E_PLUGIN naming the field and the rule', async () => {
  const err = await brokenBind('schema');
  assert.match(err.message, 'surprise is not a field of this message');
  assert.is(err.location?.field, 'surprise');
  assert.match(err.evidence.received ?? '', '"surprise":true');
});

test('a reply of the wrong type (hello to a call): E_PLUGIN', async () => {
  const err = await brokenBind('wrong-type');
  assert.match(err.message, 'with a "hello" message');
});

test.run();
