import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprintDirectory } from '../../src/fingerprint/index.ts';
import { listTree } from '../helpers/temp-env.ts';
import { fsRun } from './_fs.ts';
import { playHistory } from './_history.ts';

// filesystem.md "Directory Structure" with decisions wm-version-file, wm-version-store, wm-receipts-file, wm-envelope.
test('a history leaves exactly the spec layout in the run directory', async () => {
  const r = await fsRun();
  try {
    const answers = await playHistory(r.backend, r.run);
    const last = (answers.at(-1) as { r: { version: string } }).r.version;
    const mid = (answers[2] as { r: { version: string } }).r.version;
    const b = (answers[3] as { r: { version: string } }).r.version;
    const bin = (node: string, v: string) => `state/world-model/${node}/versions/${v.replace(':', '_')}.bin`;
    assert.equal(
      listTree(r.runDir),
      [
        'compiled-intent.json',
        'program.prose',
        'receipts/a.jsonl',
        'receipts/b.jsonl',
        'root.prose.md',
        'sources/lib/x.prose.md',
        bin('a', mid),
        bin('a', last),
        bin('b', b),
        'state.md',
        'workspace/a/scratch.md',
        'world-model/a/.version',
        'world-model/a/big.md',
        'world-model/a/truth.json',
        'world-model/b/.version',
        'world-model/b/truth.json',
      ].sort(),
    );
    assert.is(readFileSync(join(r.runDir, 'world-model/a/.version'), 'utf8'), `${last}\n`);
    // The published directory (without .version) hashes to .version: the dir/ of the previous version is gone.
    assert.is(fingerprintDirectory(join(r.runDir, 'world-model/a')).address, last);
    assert.is(fingerprintDirectory(join(r.runDir, 'world-model/b')).address, b);
    assert.is(
      readFileSync(join(r.runDir, 'compiled-intent.json'), 'utf8'),
      '{"kind":"function","n":1.5,"nodes":["a","b"]}\n',
    );
    assert.is(readFileSync(join(r.runDir, 'root.prose.md'), 'utf8'), '# root\r\n');
    assert.is(
      readFileSync(join(r.runDir, 'receipts/a.jsonl'), 'utf8').split('\n').length,
      5,
      'four lines and a final LF',
    );
  } finally {
    await r.cleanup();
  }
});

test.run();
