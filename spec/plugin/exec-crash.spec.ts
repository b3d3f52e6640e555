import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { brokenBind } from './fixtures/broken-call.ts';

test('a plugin that crashes mid-call: E_PLUGIN with exit code and stderr tail; the next open works', async () => {
  const err = await brokenBind('crash');
  assert.is(err.evidence.exitCode, 3);
  assert.match(err.evidence.stderr, 'crashing on bind as told');
  assert.match(err.message, 'exited with code 3');
  assert.match(err.message, 'crashing on bind as told');
});

test.run();
