import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { artifactAddress, normalizeArtifactPath } from '../../src/canon/index.ts';

// Decision canon-leading-slash: the reference strips a leading "/" although its comment says it is disallowed.
const WANT = 'sha256:d9be01d6469392ff1d085699a398aa5d3a24f2b7adc5c5d836be998866c60c44';

test('dir/truth.json, dir\\truth.json and /dir/truth.json share one address', () => {
  assert.is(artifactAddress({ 'dir/truth.json': '{}' }), WANT);
  assert.is(artifactAddress({ 'dir\\truth.json': '{}' }), WANT);
  assert.is(artifactAddress({ '/dir/truth.json': '{}' }), WANT);
});

test('a leading slash is stripped silently, as the reference does', () => {
  assert.is(normalizeArtifactPath('/dir/truth.json'), 'dir/truth.json');
  assert.is(normalizeArtifactPath('//./dir//./truth.json'), 'dir/truth.json');
  assert.is(normalizeArtifactPath('dir\\sub\\x.md'), 'dir/sub/x.md');
});

test.run();
