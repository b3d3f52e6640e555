import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { normalizeArtifactPath, serializeArtifact } from '../../src/canon/index.ts';
import { throwsCode } from './vectors.ts';

test('".." anywhere is E_FORMAT', () => {
  throwsCode(() => normalizeArtifactPath('../x'), 'E_FORMAT');
  throwsCode(() => normalizeArtifactPath('a/../b'), 'E_FORMAT');
  throwsCode(() => normalizeArtifactPath('a\\..\\b'), 'E_FORMAT');
});

test('paths normalizing to nothing are E_FORMAT', () => {
  for (const p of ['', '/', '.', './/', '\\', '/./.']) throwsCode(() => normalizeArtifactPath(p), 'E_FORMAT');
});

test('two raw paths normalizing to one are E_FORMAT naming the field', () => {
  const e = throwsCode(() => serializeArtifact({ 'a/b': '1', '/a//b': '2' }), 'E_FORMAT');
  assert.ok(e.location?.field?.includes('/a//b'));
  throwsCode(() => serializeArtifact({ 'a\\b': '1', 'a/b': '2' }), 'E_FORMAT');
});

// Decision canon-lone-surrogates.
test('a lone surrogate in a path is E_FORMAT', () => {
  throwsCode(() => normalizeArtifactPath('x\uD800.md'), 'E_FORMAT');
});

test('"..." and ".hidden" are ordinary names', () => {
  assert.is(normalizeArtifactPath('.../.hidden'), '.../.hidden');
});

test.run();
