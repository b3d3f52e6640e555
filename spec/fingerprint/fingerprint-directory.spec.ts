import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commit } from '../../src/canon/index.ts';
import { fingerprintDirectory } from '../../src/fingerprint/index.ts';

const tree = (files: Record<string, string>): string => {
  const dir = mkdtempSync(join(tmpdir(), 'canon-fp-'));
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  return dir;
};

test('a directory addresses like the same files committed in memory, nested paths included', () => {
  const files = { 'truth.json': '{"a":1}', 'published/funding/x.md': 'x', '.hidden': 'h', 'B.md': 'b' };
  const dir = tree(files);
  try {
    const fp = fingerprintDirectory(dir);
    const c = commit(files);
    assert.is(fp.address, c.address);
    assert.is(fp.files, 4);
    assert.is(fp.bytes, c.bytes.length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Decision canon-directory-fingerprint: the root .version stamp is left out; a nested one and empty dirs are not files.
test('the root .version is excluded, a nested .version is not, empty directories add nothing', () => {
  const dir = tree({ 'truth.json': '{}', '.version': 'sha256:x\n', 'sub/.version': 'v' });
  mkdirSync(join(dir, 'empty/deeper'), { recursive: true });
  try {
    assert.is(fingerprintDirectory(dir).address, commit({ 'truth.json': '{}', 'sub/.version': 'v' }).address);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an empty directory is the empty artifact', () => {
  const dir = tree({});
  try {
    assert.is(
      fingerprintDirectory(dir).address,
      'sha256:e59ed80133c208bf8e8264c96c5bbe0d36aa073fb969671ec6b752bffb7b08e6',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Decision canon-single-file: one file = an artifact holding it under its base name (table 3.2's truth.json).
test('a single file addresses as an artifact holding it under its base name', () => {
  const dir = tree({ 'deep/truth.json': '{}' });
  try {
    const fp = fingerprintDirectory(join(dir, 'deep/truth.json'));
    assert.is(fp.address, 'sha256:d8e15992a8d850d8120b7879866036272f46fafd568ce4c86ab241c60b3ccc85');
    assert.is(fp.files, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a small read buffer gives the same address as the default one', () => {
  const dir = tree({ 'a.bin': 'x'.repeat(10_000), 'b.bin': 'y'.repeat(3) });
  try {
    assert.is(fingerprintDirectory(dir, { bufferBytes: 7 }).address, fingerprintDirectory(dir).address);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
