import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppendedBytes, TAIL_CHECK } from '../../../src/backends/filesystem/appended-bytes.ts';

const fresh = (text: string) => {
  const file = join(mkdtempSync(join(tmpdir(), 'appended-bytes-')), 'log');
  writeFileSync(file, text);
  return file;
};
const read = (r: AppendedBytes, file: string) => {
  const got = r.read(file);
  return got.from === 'missing' ? ['missing', ''] : [got.from, got.bytes.toString('utf8')];
};

test('after the first read, a read hands out only the complete lines appended since', () => {
  const file = fresh('a\nb\n');
  const r = new AppendedBytes();
  assert.equal(read(r, file), ['start', 'a\nb\n']);
  assert.equal(read(r, file), ['end', '']);
  appendFileSync(file, 'c\nd');
  assert.equal(read(r, file), ['end', 'c\n'], 'a line without its newline is still being written');
  appendFileSync(file, '\n');
  assert.equal(read(r, file), ['end', 'd\n']);
  assert.is(r.wholeReads, 1);
});

test('a file rewritten in place within the checked tail, same size or longer, is read from its start', () => {
  const file = fresh('x'.repeat(3 * TAIL_CHECK) + '\nstatus: completed\n');
  const r = new AppendedBytes();
  read(r, file);
  writeFileSync(file, readFileSync(file, 'utf8').replace('completed', 'executing'));
  assert.equal(read(r, file)[0], 'start', 'same size, same inode');
  writeFileSync(file, readFileSync(file, 'utf8').replace('executing', 'failed!!!') + 'more\n');
  const got = read(r, file);
  assert.equal([got[0], got[1]!.endsWith('failed!!!\nmore\n')], ['start', true], 'grew');
});

test('a file replaced (another inode), cut shorter or removed is read afresh', () => {
  const file = fresh('a\nb\n');
  const r = new AppendedBytes();
  read(r, file);
  writeFileSync(`${file}.tmp`, 'a\nb\nc\n');
  renameSync(`${file}.tmp`, file);
  assert.equal(read(r, file), ['start', 'a\nb\nc\n'], 'replaced with the same bytes and one more line');
  writeFileSync(file, 'a\n');
  assert.equal(read(r, file), ['start', 'a\n']);
  assert.equal(read(new AppendedBytes(), `${file}-none`), ['missing', '']);
});

test.run();
