import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprintDirectory } from '../../src/fingerprint/index.ts';
import { fsRun } from './_fs.ts';

// Decision wm-publish-order: .version is the pointer; readPublished reads the bytes it names, not the directory.
test('files half laid out before .version flips: readers still get the old version; the next commit repairs the directory', async () => {
  const r = await fsRun();
  try {
    const v1 = await r.call<{ version: string }>('commitWorldModel', {
      node: 'n',
      contract: 'c',
      files: { 'truth.json': '{"v":1}' },
    });
    // A crash mid-publish: a new file and a leftover temp file, .version untouched.
    writeFileSync(join(r.runDir, 'world-model/n/truth.json'), '{"v":2}');
    writeFileSync(join(r.runDir, 'world-model/n/.tmp-123-abcdef'), 'torn');
    const p = await r.call<{ version: string; files: Record<string, string> }>('readPublished', { node: 'n' });
    assert.is(p.version, v1.version);
    assert.equal(p.files, { 'truth.json': '{"v":1}' });
    const v3 = await r.call<{ version: string }>('commitWorldModel', {
      node: 'n',
      contract: 'c',
      files: { 'truth.json': '{"v":3}' },
    });
    assert.is(
      fingerprintDirectory(join(r.runDir, 'world-model/n')).address,
      v3.version,
      'stale and temp files are gone',
    );
  } finally {
    await r.cleanup();
  }
});

test.run();
