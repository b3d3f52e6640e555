import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { reactorVerifier } from '../../../src/verify/reactor/index.ts';
import { REACTOR_DIR, reactorDirs } from '../../canon/vectors.ts';

test('all 8 Reactor vector dirs are detected and verify with zero findings', async () => {
  const dirs = reactorDirs();
  assert.is(dirs.length, 8);
  for (const d of dirs) {
    const path = join(REACTOR_DIR, d);
    assert.ok(await reactorVerifier.detect(path), d);
    assert.equal(await reactorVerifier.verify(path, {}), [], d);
  }
});

test('detect refuses a dir without receipts.json and world-models/, and a missing path', async () => {
  assert.not.ok(await reactorVerifier.detect(REACTOR_DIR));
  assert.not.ok(await reactorVerifier.detect(join(REACTOR_DIR, 'masked-relay', 'world-models')));
  assert.not.ok(await reactorVerifier.detect('/nonexistent/x'));
  assert.is(reactorVerifier.kind, 'reactor');
});

test.run();
