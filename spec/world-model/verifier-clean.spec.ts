import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { worldModelVerifier } from '../../src/verify/world-model/index.ts';
import { fsRun } from './_fs.ts';
import { playHistory } from './_history.ts';

test('a run directory written by the filesystem backend is detected and verifies with no finding', async () => {
  const r = await fsRun();
  try {
    assert.is(await worldModelVerifier.detect(r.runDir), false, 'no world-model yet');
    await playHistory(r.backend, r.run);
    assert.is(await worldModelVerifier.detect(r.runDir), true);
    assert.equal(await worldModelVerifier.verify(r.runDir, {}), []);
  } finally {
    await r.cleanup();
  }
});

test.run();
