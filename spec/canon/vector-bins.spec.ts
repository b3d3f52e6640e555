import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { contentAddressOf, parseArtifact, serializeArtifact } from '../../src/canon/index.ts';
import { allBins } from './vectors.ts';

// Every version file the reference wrote must parse with nothing left over, hash to its name, and come back
// byte for byte when its files are serialized again.
test('every Reactor versions/*.bin parses, re-serializes byte for byte and hashes to its name', () => {
  const bins = allBins();
  assert.ok(bins.length >= 300, `found ${bins.length} .bin files`);
  for (const path of bins) {
    const bytes = new Uint8Array(readFileSync(path));
    const entries = parseArtifact(bytes);
    const again = serializeArtifact(new Map(entries.map((e) => [e.path, e.content])));
    assert.ok(Buffer.from(again).equals(bytes), `${path} does not re-serialize to itself`);
    assert.is(`${contentAddressOf(bytes).replace(':', '_')}.bin`, basename(path));
  }
});

test.run();
