import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { artifactAddress, EMPTY_ARTIFACT_ADDRESS, serializeArtifact } from '../../src/canon/index.ts';
import { hex } from './vectors.ts';

// Table 3.2: the empty artifact is 9 bytes and its address is the cold-start @atomic.
test('the empty artifact serializes to 4f50574d3100000000 and addresses to sha256:e59ed801...', () => {
  assert.is(hex(serializeArtifact({})), '4f50574d3100000000');
  assert.is(artifactAddress({}), 'sha256:e59ed80133c208bf8e8264c96c5bbe0d36aa073fb969671ec6b752bffb7b08e6');
  assert.is(EMPTY_ARTIFACT_ADDRESS, artifactAddress({}));
});

test.run();
