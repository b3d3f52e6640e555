import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inTree, kindOf, listOwned, readOwned, RefusedFile } from '../../../src/verify/kit/owned-files.ts';
import { scanTree } from '../../../src/verify/kit/scan-tree.ts';

/** A temp dir holding a.md (5 bytes), sub/, a link, a FIFO and a name that is not UTF-8. */
function tree(): { root: string; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), 'prose-owned-'));
  writeFileSync(join(root, 'a.md'), 'hello');
  mkdirSync(join(root, 'sub'));
  symlinkSync(join(root, 'a.md'), join(root, 'link.md'));
  symlinkSync('..', join(root, 'sub', 'up'));
  execFileSync('mkfifo', [join(root, 'pipe')]);
  writeFileSync(Buffer.concat([Buffer.from(join(root, 'bad')), Buffer.from([0xc3, 0x28])]), '');
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const refusal = (call: () => unknown): string | undefined => {
  try {
    call();
  } catch (err) {
    if (err instanceof RefusedFile) return err.why;
    throw err;
  }
  return undefined;
};

test('listOwned keeps regular files and directories with UTF-8 names only', () => {
  const t = tree();
  try {
    assert.equal(listOwned(t.root), ['a.md', 'sub']);
    assert.is(
      refusal(() => listOwned(join(t.root, 'link.md'))),
      'symlink',
    );
  } finally {
    t.cleanup();
  }
});

test('readOwned reads a regular file and refuses a link, a FIFO (without blocking) and a file over the cap', () => {
  const t = tree();
  try {
    assert.is(readOwned(join(t.root, 'a.md'), 5).toString(), 'hello');
    assert.is(
      refusal(() => readOwned(join(t.root, 'a.md'), 4)),
      'too-large',
    );
    assert.is(
      refusal(() => readOwned(join(t.root, 'link.md'), 100)),
      'symlink',
    );
    assert.is(
      refusal(() => readOwned(join(t.root, 'pipe'), 100)),
      'special',
    );
    assert.is(kindOf(join(t.root, 'nothing')), 'missing');
  } finally {
    t.cleanup();
  }
});

test('scanTree reports each link, FIFO and bad name once, and does not climb a link to its parent', () => {
  const t = tree();
  try {
    const got: string[] = [];
    scanTree(t.root, (rule, _m, file) => got.push(`${rule} ${file}`), { maxFileBytes: 4 });
    assert.equal(got, [
      'tree.too-large a.md',
      'tree.name-encoding bad\\xc3(',
      'tree.symlink link.md',
      'tree.special-file pipe',
      'tree.symlink sub/up',
    ]);
  } finally {
    t.cleanup();
  }
});

test('inTree keeps a path from the state inside the root', () => {
  assert.is(inTree('/r', 'bindings/a.md'), '/r/bindings/a.md');
  assert.is(inTree('/r', 'a/../b.md'), '/r/b.md');
  assert.is(inTree('/r', '../x'), undefined);
  assert.is(inTree('/r', 'a/../../x'), undefined);
  assert.is(inTree('/r', '/etc/passwd'), undefined);
  assert.is(inTree('/r', '..'), undefined);
});

test.run();
