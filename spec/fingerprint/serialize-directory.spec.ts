import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { contentAddressOf, parseArtifact, serializeArtifact } from '../../src/canon/index.ts';
import { serializeDirectoryTo } from '../../src/fingerprint/index.ts';

test('serializeDirectoryTo writes the exact OPWM1 bytes and returns their address, honouring backpressure', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'canon-ser-'));
  try {
    mkdirSync(join(dir, 'sub'));
    const files = { 'sub/z.md': 'z'.repeat(5000), 'a.json': '{}', 'é.md': 'e' };
    for (const [p, c] of Object.entries(files)) writeFileSync(join(dir, p), c);
    const chunks: Buffer[] = [];
    let drains = 0;
    // A tiny highWaterMark forces write() to return false, so the drain path runs.
    const sink = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _enc, cb) {
        chunks.push(chunk);
        setImmediate(cb);
      },
    });
    sink.on('drain', () => drains++);
    const fp = await serializeDirectoryTo(dir, sink, { bufferBytes: 1024 });
    await new Promise<void>((ok) => sink.end(() => ok())); // the caller owns the sink and ends it
    const bytes = Buffer.concat(chunks);
    assert.ok(bytes.equals(serializeArtifact(files)));
    assert.is(fp.address, contentAddressOf(bytes));
    assert.is(fp.bytes, bytes.length);
    assert.ok(drains > 0);
    assert.equal(
      parseArtifact(bytes).map((e) => e.path),
      ['a.json', 'sub/z.md', 'é.md'],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
