import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commit } from '../../src/canon/index.ts';
import { fingerprintDirectory, fsTreeReader, planTree } from '../../src/fingerprint/index.ts';

const tree = (names: string[]): string => {
  const dir = mkdtempSync(join(tmpdir(), 'canon-order-'));
  for (const p of names) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), p);
  }
  return dir;
};

const check = (names: string[], want: string[]): void => {
  const dir = tree(names);
  try {
    assert.equal(
      planTree(fsTreeReader, dir).map((p) => p.file.path),
      want,
    );
    assert.is(fingerprintDirectory(dir).address, commit(Object.fromEntries(names.map((n) => [n, n]))).address);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

// The plan compares strings when no path leaves the BMP (UTF-16 order is then UTF-8 order) and bytes otherwise.
test('a tree of BMP names is ordered by UTF-8 bytes: "B" before "a-", "a.b" before "a/b", U+00E9 before U+FF21', () => {
  check(['a-', 'B', 'a/b', 'a.b', '\u00e9', '\uFF21', 'z'], ['B', 'a-', 'a.b', 'a/b', 'z', '\u00e9', '\uFF21']);
});

test('a tree with a name beyond the BMP puts U+1F600 after U+FF21, as its UTF-8 bytes do', () => {
  check(
    ['\u{1F600}', '\uFF21', 'a', 'd/\u{1F600}', 'd/\uFFFD'],
    ['a', 'd/\uFFFD', 'd/\u{1F600}', '\uFF21', '\u{1F600}'],
  );
});

test.run();
