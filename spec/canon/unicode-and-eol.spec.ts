import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { artifactAddress } from '../../src/canon/index.ts';

// Decisions canon-no-unicode-normalization and canon-no-eol-normalization: bytes are the identity.
test('café.md in NFC and in NFD give the two reference addresses', () => {
  const nfc = 'café.md'.normalize('NFC');
  const nfd = 'café.md'.normalize('NFD');
  assert.is.not(nfc, nfd);
  assert.is(artifactAddress({ [nfc]: 'x' }), 'sha256:558dbfa427510c3a25448a7069a47eb5099f50ac6c35a2711ebf66c76c93f34f');
  assert.is(artifactAddress({ [nfd]: 'x' }), 'sha256:07523b02ac0f7dc4d932c28ddd6f91329e74819929401502be7eea5ee1a8799a');
});

test('a\\n and a\\r\\n give the two reference addresses', () => {
  assert.is(
    artifactAddress({ 't.md': 'a\n' }),
    'sha256:d5cb362da28dfb542b584046f0ef448bd77cffa6b72b593f011269fc42941f7e',
  );
  assert.is(
    artifactAddress({ 't.md': 'a\r\n' }),
    'sha256:a2aaf98fcbb03a7d9a4bd4a01bc7333960753abab77e94e808e598fc0508acd9',
  );
});

test.run();
