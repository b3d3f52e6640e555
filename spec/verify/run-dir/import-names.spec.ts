import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyPath } from '../../../src/verify/registry.ts';
import { copyValid } from './fixture-copy.ts';

test('an import splits at its first "--": a slug may hold "--", a handle may not be empty; nested imports are checked too', async () => {
  const c = copyValid();
  try {
    const imports = join(c.run, 'imports');
    renameSync(c.imp, join(imports, 'alice--deep--research'));
    assert.equal((await verifyPath(c.run)).findings, []);
    cpSync(join(imports, 'alice--deep--research'), join(imports, '--research'), { recursive: true });
    // A nested import of a nested import, with a state.md whose run: is malformed.
    const nested = join(imports, 'alice--deep--research', 'imports', 'bob--inner');
    cpSync(join(imports, '--research'), nested, { recursive: true });
    writeFileSync(
      join(nested, 'state.md'),
      readFileSync(join(nested, 'state.md'), 'utf8').replace('run: 20260115-143101-0b5e2f', 'run: 2026'),
    );
    const { findings } = await verifyPath(c.run);
    assert.equal(
      findings.map((f) => [f.rule, f.file]),
      [
        ['import.name', 'imports/--research'],
        ['state-md.header-format', 'imports/alice--deep--research/imports/bob--inner/state.md'],
      ],
    );
  } finally {
    c.cleanup();
  }
});

test.run();
