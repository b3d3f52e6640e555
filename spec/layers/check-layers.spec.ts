import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const script = join(repo, 'scripts', 'check-layers.mjs');
const checkLayers = (srcDir?: string) =>
  spawnSync(process.execPath, [script, ...(srcDir ? [srcDir] : [])], { encoding: 'utf8' });

/** A copy of src/ with `edit` applied, checked, then removed. */
function checkPlanted(edit: (src: string) => void) {
  const root = mkdtempSync(join(tmpdir(), 'prose-layers-'));
  try {
    const src = join(root, 'src');
    cpSync(join(repo, 'src'), src, { recursive: true });
    edit(src);
    return checkLayers(src);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('the real src/ passes, and the script exempts no file', () => {
  const r = checkLayers();
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, 'layer check: ok');
  // The one exemption it had (backends/registry.ts, a layer of its own with no rule) must not come back.
  assert.not.match(readFileSync(script, 'utf8'), /registry/);
});

test('an unchanged copy passes: the planted import below is what fails', () => {
  const r = checkPlanted(() => {});
  assert.is(r.status, 0, r.stderr);
});

test('a backend importing the CLI (an upward import) fails the check, naming the file and the target', () => {
  const r = checkPlanted((src) => {
    const file = join(src, 'backends', 'filesystem', 'index.ts');
    writeFileSync(
      file,
      `import { builtInNames } from '../../cli/backend-kinds.ts';\nvoid builtInNames;\n${readFileSync(file, 'utf8')}`,
    );
  });
  assert.is(r.status, 1);
  assert.match(r.stderr, `backends/filesystem/index.ts: backends may not import cli/backend-kinds.ts`);
});

test('the core importing a backend fails the check', () => {
  const r = checkPlanted((src) =>
    writeFileSync(join(src, 'core', 'planted.ts'), `export { sqliteFactory } from '../backends/sqlite/index.ts';\n`),
  );
  assert.is(r.status, 1);
  assert.match(r.stderr, 'core/planted.ts: core may not import backends/sqlite/index.ts');
});

test('one backend importing another fails the check', () => {
  const r = checkPlanted((src) =>
    writeFileSync(
      join(src, 'backends', 'sqlite', 'planted.ts'),
      `export { filesystemFactory } from '../filesystem/index.ts';\n`,
    ),
  );
  assert.is(r.status, 1);
  assert.match(r.stderr, 'backends/sqlite/planted.ts: backends may not import backends/filesystem/index.ts');
});

test("another layer reaching past the SQLite library's index fails the check", () => {
  const r = checkPlanted((src) =>
    writeFileSync(join(src, 'verify', 'planted.ts'), `export { JOURNAL_MODE } from '../sqlite/sqlite-file.ts';\n`),
  );
  assert.is(r.status, 1);
  assert.match(r.stderr, 'verify/planted.ts: verify may not import sqlite/sqlite-file.ts');
});

test('two files importing each other (a circle, type-only imports included) fail the check, naming both', () => {
  const r = checkPlanted((src) => {
    writeFileSync(
      join(src, 'core', 'planted-a.ts'),
      `import type { B } from './planted-b.ts';\nexport type A = { b?: B };\n`,
    );
    writeFileSync(
      join(src, 'core', 'planted-b.ts'),
      `import type { A } from './planted-a.ts';\nexport type B = { a?: A };\n`,
    );
  });
  assert.is(r.status, 1);
  assert.match(r.stderr, 'these files import each other in a circle: core/planted-a.ts, core/planted-b.ts');
});

test('canon importing node:fs or worker_threads fails the check (the fingerprint engine reads trees, canon does not)', () => {
  for (const mod of ['node:fs', 'node:worker_threads']) {
    const r = checkPlanted((src) => writeFileSync(join(src, 'canon', 'planted.ts'), `export * from '${mod}';\n`));
    assert.is(r.status, 1, mod);
    assert.match(r.stderr, `canon/planted.ts: canon holds pure formats but imports ${mod}`);
  }
});

test.run();
