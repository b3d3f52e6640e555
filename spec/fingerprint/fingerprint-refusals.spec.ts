import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fingerprintDirectory } from '../../src/fingerprint/index.ts';
import { throwsCode } from '../canon/vectors.ts';

const withDir = (fn: (dir: string) => void) => {
  const dir = mkdtempSync(join(tmpdir(), 'canon-refuse-'));
  try {
    writeFileSync(join(dir, 'ok.md'), 'ok');
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

test('a symlink inside the tree is E_FORMAT naming it', () =>
  withDir((dir) => {
    symlinkSync('ok.md', join(dir, 'link.md'));
    const e = throwsCode(() => fingerprintDirectory(dir), 'E_FORMAT');
    assert.ok(e.message.includes('link.md') && e.message.includes('symlink'));
  }));

test('a FIFO inside the tree is E_FORMAT', () =>
  withDir((dir) => {
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    throwsCode(() => fingerprintDirectory(dir), 'E_FORMAT');
  }));

test('a file name that is not UTF-8 is E_FORMAT with its bytes in hex', () =>
  withDir((dir) => {
    mkdirSync(join(dir, 'sub'));
    writeFileSync(Buffer.concat([Buffer.from(join(dir, 'sub') + '/'), Buffer.from([0x66, 0xff])]), 'x');
    const e = throwsCode(() => fingerprintDirectory(dir), 'E_FORMAT');
    assert.ok(e.message.includes('66ff'));
  }));

test('a name holding a real U+FFFD is valid UTF-8 and accepted', () =>
  withDir((dir) => {
    writeFileSync(join(dir, 'x\uFFFD.md'), 'x');
    assert.is(fingerprintDirectory(dir).files, 2);
  }));

test('a file name holding "\\" that collides with a real subpath is E_FORMAT', () =>
  withDir((dir) => {
    mkdirSync(join(dir, 'a'));
    writeFileSync(join(dir, 'a', 'b'), '1');
    writeFileSync(join(dir, 'a\\b'), '2');
    throwsCode(() => fingerprintDirectory(dir), 'E_FORMAT');
  }));

test('a missing path is E_NOT_FOUND', () =>
  withDir((dir) => {
    throwsCode(() => fingerprintDirectory(join(dir, 'nope')), 'E_NOT_FOUND');
  }));

test('a directory named through a symlink is followed', () =>
  withDir((dir) => {
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'x'), 'x');
    symlinkSync(join(dir, 'real'), join(dir, 'alias'));
    assert.is(fingerprintDirectory(join(dir, 'alias')).address, fingerprintDirectory(join(dir, 'real')).address);
  }));

test.run();
