import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { opwm1FileHeader, opwm1Header, parseArtifact, serializeArtifact } from '../../src/canon/index.ts';
import { throwsCode, utf8 } from './vectors.ts';

const bytes = serializeArtifact({ 'a.json': '1', 'b.json': '22' });
const cat = (...parts: Uint8Array[]) => Uint8Array.from(Buffer.concat(parts));

test('round trip: parse gives the files back and re-serializes to the same bytes', () => {
  const entries = parseArtifact(bytes);
  assert.equal(
    entries.map((e) => [e.path, Buffer.from(e.content).toString()]),
    [
      ['a.json', '1'],
      ['b.json', '22'],
    ],
  );
  assert.equal(serializeArtifact(Object.fromEntries(entries.map((e) => [e.path, e.content]))), bytes);
});

test('bad magic is E_FORMAT at byte 0', () => {
  const bad = Uint8Array.from(bytes);
  bad[4] = 0x32; // OPWM2
  const e = throwsCode(() => parseArtifact(bad), 'E_FORMAT');
  assert.ok(e.location?.field?.startsWith('magic @0'));
  throwsCode(() => parseArtifact(new Uint8Array(0)), 'E_FORMAT');
});

test('truncation at every length is E_FORMAT, never a partial result', () => {
  for (let n = 0; n < bytes.length; n++) throwsCode(() => parseArtifact(bytes.subarray(0, n)), 'E_FORMAT');
});

test('truncated content names the field and offset', () => {
  const e = throwsCode(() => parseArtifact(bytes.subarray(0, bytes.length - 1)), 'E_FORMAT');
  assert.is(e.location?.field, `files[1].content @${bytes.length - 2}`);
});

test('trailing bytes are E_FORMAT at the first extra byte', () => {
  const e = throwsCode(() => parseArtifact(cat(bytes, Uint8Array.of(0))), 'E_FORMAT');
  assert.is(e.location?.field, `trailing @${bytes.length}`);
});

test('".." and empty stored paths are E_FORMAT', () => {
  for (const p of ['../x', '/', '.']) {
    const pb = utf8(p);
    throwsCode(() => parseArtifact(cat(opwm1Header(1), opwm1FileHeader(pb, 0))), 'E_FORMAT');
  }
});

test('a stored path that is not valid UTF-8 is E_FORMAT', () => {
  throwsCode(() => parseArtifact(cat(opwm1Header(1), opwm1FileHeader(Uint8Array.of(0xff), 0))), 'E_FORMAT');
});

// Decision canon-strict-parse: canonical by default, reference-lenient on request.
test('out-of-order or un-normalized paths are refused by default, accepted with canonical:false', () => {
  const b = utf8('b'),
    a = utf8('a');
  const unordered = cat(opwm1Header(2), opwm1FileHeader(b, 0), opwm1FileHeader(a, 0));
  throwsCode(() => parseArtifact(unordered), 'E_FORMAT');
  assert.equal(
    parseArtifact(unordered, { canonical: false }).map((e) => e.path),
    ['b', 'a'],
  );
  const slashed = cat(opwm1Header(1), opwm1FileHeader(utf8('/x'), 0));
  throwsCode(() => parseArtifact(slashed), 'E_FORMAT');
  assert.equal(
    parseArtifact(slashed, { canonical: false }).map((e) => e.path),
    ['x'],
  );
});

test('duplicate normalized paths are E_FORMAT even when lenient', () => {
  const dup = cat(opwm1Header(2), opwm1FileHeader(utf8('a/b'), 0), opwm1FileHeader(utf8('a\\b'), 0));
  throwsCode(() => parseArtifact(dup, { canonical: false }), 'E_FORMAT');
  throwsCode(
    () => parseArtifact(cat(opwm1Header(2), opwm1FileHeader(utf8('a'), 0), opwm1FileHeader(utf8('a'), 0))),
    'E_FORMAT',
  );
});

test.run();
