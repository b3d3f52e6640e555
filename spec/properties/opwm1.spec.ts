import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { artifactAddress, serializeArtifact, serializeEntries } from '../../src/canon/opwm1.ts';
import { parseArtifact } from '../../src/canon/parse-artifact.ts';
import { shuffled } from './_arbitraries.ts';

// OPWM1 (docs/canon.md): bytes of a file map, ordered by UTF-8 path bytes, no Unicode or EOL normalization.
const segment = fc
  .oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 6 }),
    fc.constantFrom(
      'caf\u00e9',
      'cafe\u0301',
      '\uD55C',
      '\u1112\u1161\u11AB',
      'B',
      'a',
      '\uFF21',
      '😀',
      '.hidden',
      'x.md',
      ' ',
    ),
  )
  .filter((s) => s.isWellFormed() && !/[/\\]/.test(s) && s !== '.' && s !== '..');
const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join('/'));
const content = fc.oneof(
  fc.constant(''),
  fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.toWellFormed()),
  fc.uint8Array({ maxLength: 40 }),
);
const files = fc.uniqueArray(fc.tuple(path, content), { selector: ([p]) => p, maxLength: 8 });

const bytesOf = (c: string | Uint8Array) => (typeof c === 'string' ? new TextEncoder().encode(c) : c);
const asMap = (pairs: [string, string | Uint8Array][]) =>
  new Map(pairs.map(([p, c]) => [p, Buffer.from(bytesOf(c)).toString('hex')]));

test('parseArtifact(serializeArtifact(files)) gives every file back, bytes exact', () => {
  fc.assert(
    fc.property(files, (pairs) => {
      const parsed = parseArtifact(serializeArtifact(new Map(pairs)));
      assert.equal(new Map(parsed.map((e) => [e.path, Buffer.from(e.content).toString('hex')])), asMap(pairs));
    }),
    { numRuns: 300 },
  );
});

test('files come out in ascending UTF-8 byte order and re-serialize to the same bytes', () => {
  fc.assert(
    fc.property(files, (pairs) => {
      const bytes = serializeArtifact(new Map(pairs));
      const parsed = parseArtifact(bytes);
      for (let i = 1; i < parsed.length; i++)
        assert.ok(Buffer.compare(parsed[i - 1]!.pathBytes, parsed[i]!.pathBytes) < 0);
      assert.equal(Buffer.from(serializeEntries(parsed)), Buffer.from(bytes));
    }),
    { numRuns: 300 },
  );
});

test('insertion order never changes the bytes or the address', () => {
  fc.assert(
    fc.property(files, fc.integer(), (pairs, seed) => {
      const other = shuffled(pairs, seed);
      assert.equal(Buffer.from(serializeArtifact(new Map(other))), Buffer.from(serializeArtifact(new Map(pairs))));
      assert.is(artifactAddress(Object.fromEntries(other)), artifactAddress(new Map(pairs)));
    }),
    { numRuns: 300 },
  );
});

test('raw spellings of one path ("\\", leading "/", "." and empty segments) give the address of the normal path', () => {
  fc.assert(
    fc.property(files, fc.integer(), (pairs, seed) => {
      const raw = pairs.map(([p, c], i): [string, string | Uint8Array] => {
        const spellings = [p, `/${p}`, p.replace(/\//g, '\\'), `./${p}`, p.replace(/\//g, '//')];
        return [spellings[Math.abs(seed + i) % spellings.length]!, c];
      });
      assert.is(artifactAddress(new Map(raw)), artifactAddress(new Map(pairs)));
    }),
    { numRuns: 200 },
  );
});

test('NFC and NFD twins are two files with their own bytes (no Unicode normalization)', () => {
  fc.assert(
    fc.property(content, content, (a, b) => {
      const twins = new Map<string, string | Uint8Array>([
        ['caf\u00e9.md', a],
        ['cafe\u0301.md', b],
      ]);
      const parsed = parseArtifact(serializeArtifact(twins));
      assert.is(parsed.length, 2);
      assert.is.not(artifactAddress({ 'caf\u00e9.md': a }), artifactAddress({ 'cafe\u0301.md': a }));
    }),
    { numRuns: 100 },
  );
});

test('any prefix of an artifact is refused with E_FORMAT, never read as a smaller artifact', () => {
  fc.assert(
    fc.property(files, fc.nat(), (pairs, at) => {
      const bytes = serializeArtifact(new Map(pairs));
      const cut = at % bytes.length;
      try {
        parseArtifact(bytes.subarray(0, cut));
        assert.unreachable(`a cut at ${cut} of ${bytes.length} parsed`);
      } catch (err) {
        assert.is((err as { code?: string }).code, 'E_FORMAT');
      }
    }),
    { numRuns: 200 },
  );
});

test.run();
