import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { canonicalJson } from '../../src/canon/canonical-json.ts';
import { OPS } from '../../src/core/ops.ts';
import { refreshGeneratedBlocks } from '../../src/plugin/op-reference.ts';

const guide = readFileSync(new URL('../../docs/implementing.md', import.meta.url), 'utf8');

test('the generated tables of docs/implementing.md are fresh (run scripts/gen-protocol-schema.ts)', () => {
  assert.is(refreshGeneratedBlocks(guide), guide);
  for (const op of Object.keys(OPS)) assert.match(guide, `| \`${op}\` |`);
});

test('the canonical JSON test vector in the guide is what canonicalJson writes: bytes, length and hash', () => {
  const input = /^input: {2}(.*)$/m.exec(guide)![1]!;
  const output = /^output: (.*)$/m.exec(guide)![1]!.replace('<U+007F>', '\u007f').replace('<U+2028>', '\u2028');
  const text = canonicalJson(JSON.parse(input));
  assert.is(text, output);
  const bytes = Buffer.from(text, 'utf8');
  assert.match(
    guide,
    `The output is\n${bytes.length} UTF-8 bytes with SHA-256 \`${createHash('sha256').update(bytes).digest('hex')}\``,
  );
});

test("the number layouts the guide lists are JavaScript's", () => {
  for (const [n, s] of [
    [1e21, '1e+21'],
    [1e20, '100000000000000000000'],
    [1e16, '10000000000000000'],
    [2.5e-7, '2.5e-7'],
    [0.000001, '0.000001'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
  ] as const) {
    assert.is(canonicalJson(n), s);
    assert.ok(guide.includes(`→ \`${s}\``), s);
  }
});

test.run();
