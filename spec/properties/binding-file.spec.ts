import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatBindingFile, parseBindingFile, type BindingFile } from '../../src/core/formats/binding-file.ts';
import { BINDING_KINDS } from '../../src/core/model.ts';
import { checkName } from '../../src/core/names.ts';
import { hostileText, oneLine } from './_arbitraries.ts';

// decision binding-file-value: whatever the name, kind, scope, source and value hold, the file reads back exactly.
const isValidName = (s: string) => {
  try {
    checkName('binding', s);
    return true;
  } catch {
    return false;
  }
};
// U+2028 and U+2029 are refused by the names decision: they would break the heading line.
const LINE_SEPARATORS = /[\u2028\u2029]/;
const validName = fc
  .oneof(
    oneLine.map((s) => s.trim()),
    fc.constantFrom(
      'research',
      'na\u00efve',
      '日本語',
      "x'); --",
      'a\u200Db',
      '\uFB01le',
      'kind: let',
      '---',
      '```',
      '# x',
    ),
  )
  .filter((s) => isValidName(s) && !LINE_SEPARATORS.test(s));

const bindingFile: fc.Arbitrary<BindingFile> = fc
  .record({
    name: validName,
    kind: fc.constantFrom(...BINDING_KINDS),
    executionId: fc.option(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), { nil: null }),
    source: hostileText,
    value: hostileText,
    attachment: fc.option(oneLine, { nil: undefined }),
  })
  .map(({ attachment, ...b }) => (attachment === undefined ? b : { ...b, attachment }));

test('parseBindingFile(formatBindingFile(b)) gives b back', () => {
  fc.assert(
    fc.property(bindingFile, (b) => {
      assert.equal(parseBindingFile(formatBindingFile(b)), b);
    }),
    { numRuns: 300 },
  );
});

test('the value is the exact suffix of the file: nothing added or removed', () => {
  fc.assert(
    fc.property(bindingFile, (b) => {
      const text = formatBindingFile(b);
      assert.ok(text.endsWith(`\n---\n\n${b.value}`));
    }),
    { numRuns: 200 },
  );
});

test('a file cut anywhere before its value is E_FORMAT naming the file and a line, never a wrong binding', () => {
  fc.assert(
    fc.property(bindingFile, fc.nat(), (b, at) => {
      const text = formatBindingFile(b);
      const header = text.length - b.value.length;
      // Cutting inside the "---\n\n" tail may still parse (an empty value may end the file); cut before the separator.
      const cut = at % Math.max(1, header - 5);
      try {
        parseBindingFile(text.slice(0, cut), 'bindings/x.md');
        assert.unreachable(`a cut at ${cut} of ${header} header characters parsed`);
      } catch (err) {
        const e = err as { code?: string; location?: { file?: string; line?: number } };
        assert.is(e.code, 'E_FORMAT');
        assert.is(e.location?.file, 'bindings/x.md');
        assert.type(e.location?.line, 'number');
      }
    }),
    { numRuns: 200 },
  );
});

test('names holding U+2028 or U+2029 are refused by the names decision (they would break the heading line)', () => {
  for (const name of ['a\u2028b', 'a\u2029b']) assert.not.ok(isValidName(name), JSON.stringify(name));
});

test.run();
