import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseArtifact, serializeArtifact } from '../../src/canon/index.ts';

const order = (files: Record<string, string>) => parseArtifact(serializeArtifact(files)).map((e) => e.path);

test('files are ordered by UTF-8 bytes: "B" before "a"', () => {
  assert.equal(order({ a: '', B: '' }), ['B', 'a']);
});

// JS default sort puts U+1F600 (surrogates D83D..) before U+FF21; UTF-8 bytes put F0.. after EF BC A1.
test("U+FF21 sorts before U+1F600, unlike JavaScript's default sort", () => {
  const fw = '\uFF21';
  const emoji = '\u{1F600}';
  assert.equal([emoji, fw].sort(), [emoji, fw]);
  assert.equal(order({ [emoji]: '', [fw]: '' }), [fw, emoji]);
});

test('a prefix sorts before its extensions, "a/b" after "a.b"', () => {
  assert.equal(order({ 'a/b': '', 'a.b': '', a: '' }), ['a', 'a.b', 'a/b']);
});

test.run();
