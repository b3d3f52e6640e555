import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commit } from '../../src/canon/index.ts';
import { fingerprintDirectory, type TreeFile, type TreeReader } from '../../src/fingerprint/index.ts';
import { throwsCode, utf8 } from '../canon/vectors.ts';

/** An in-memory tree behind the reader interface: Windows-style names, and files that lie about their size. */
const fake = (files: Record<string, string>, lie: Record<string, number> = {}): TreeReader => ({
  kind: (p) => (p === '/root' ? 'directory' : 'missing'),
  list: () =>
    Object.entries(files).map(([path, c]): TreeFile => ({ path, size: lie[path] ?? utf8(c).length, ref: path })),
  single: () => {
    throw new Error('unused');
  },
  *chunks(file, buffer) {
    const bytes = utf8(files[file.ref]!);
    for (let off = 0; off < bytes.length; off += buffer.length) {
      const n = Math.min(buffer.length, bytes.length - off);
      buffer.set(bytes.subarray(off, off + n));
      yield buffer.subarray(0, n);
    }
  },
});

test('backslash paths from a reader normalize like any artifact path', () => {
  const fp = fingerprintDirectory('/root', { reader: fake({ 'dir\\truth.json': '{}' }) });
  assert.is(fp.address, 'sha256:d9be01d6469392ff1d085699a398aa5d3a24f2b7adc5c5d836be998866c60c44');
});

test('a custom exclude replaces the .version default', () => {
  const reader = fake({ '.version': 'v', 'skip.tmp': 't', 'a.md': 'a' });
  const fp = fingerprintDirectory('/root', { reader, exclude: (p) => p.endsWith('.tmp') });
  assert.is(fp.address, commit({ '.version': 'v', 'a.md': 'a' }).address);
});

test('a file that grows or shrinks while read is E_IO', () => {
  throwsCode(() => fingerprintDirectory('/root', { reader: fake({ 'a.md': 'abc' }, { 'a.md': 2 }) }), 'E_IO');
  throwsCode(() => fingerprintDirectory('/root', { reader: fake({ 'a.md': 'abc' }, { 'a.md': 4 }) }), 'E_IO');
});

test.run();
