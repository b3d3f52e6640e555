import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VM } from '../../src/core/actor.ts';
import { worldModelVerifier } from '../../src/verify/world-model/index.ts';
import { fsRun } from './_fs.ts';

// filesystem.md: imports/{handle}--{slug}/ repeats the whole structure, world-model included.
test('the verifier walks imported runs and names their files from the outer run dir', async () => {
  const r = await fsRun();
  try {
    const { run: inner } = await r.backend.call(
      'createImport',
      { run: r.run, handle: 'lib', slug: 'digest', program: 'q' },
      VM,
    );
    await r.backend.call(
      'commitWorldModel',
      { run: inner, node: 'n', contract: 'c', files: { 'truth.json': '{}' } },
      VM,
    );
    assert.equal(await worldModelVerifier.verify(r.runDir, {}), []);
    writeFileSync(join(r.runDir, 'imports/lib--digest/world-model/n/truth.json'), '{"x":1}');
    const findings = await worldModelVerifier.verify(r.runDir, {});
    assert.equal(
      findings.map((f) => [f.rule, f.file]),
      [['wm.version-hash', 'imports/lib--digest/world-model/n']],
    );
  } finally {
    await r.cleanup();
  }
});

test.run();
