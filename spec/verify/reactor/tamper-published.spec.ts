import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { nodeDir, readReceipts, rules, verify, withCopy } from './tamper.ts';

// tamper-forge (d): the reference passes an edited published.json; we do not (decision reactor-published).
test('an edited published.json is reactor.published-match naming the file', () =>
  withCopy('contract-redline', async (dir) => {
    const node = readReceipts(dir)[0].node;
    const path = join(nodeDir(dir, node), 'published.json');
    const pub = JSON.parse(readFileSync(path, 'utf8'));
    const facet = Object.keys(pub.fingerprints).find((k) => k !== '@atomic') ?? '@atomic';
    pub.fingerprints[facet] = 'sha256:' + '0'.repeat(64);
    if (facet === '@atomic') pub.version = pub.fingerprints[facet];
    writeFileSync(path, JSON.stringify(pub));
    const found = await verify(dir);
    assert.ok(rules(found).includes('reactor.published-match'));
    assert.ok(
      found.some((f) => f.rule === 'reactor.published-match' && f.node === node && f.file?.endsWith('published.json')),
    );
  }));

test('a published version naming no .bin is reactor.published-version', () =>
  withCopy('contract-redline', async (dir) => {
    const node = readReceipts(dir)[0].node;
    const path = join(nodeDir(dir, node), 'published.json');
    const pub = JSON.parse(readFileSync(path, 'utf8'));
    pub.version = 'sha256:' + '1'.repeat(64);
    writeFileSync(path, JSON.stringify(pub));
    assert.equal(rules(await verify(dir)), ['reactor.published-version']);
  }));

test('key order in published.json does not matter (it is insertion-ordered)', () =>
  withCopy('contract-redline', async (dir) => {
    const node = readReceipts(dir)[0].node;
    const path = join(nodeDir(dir, node), 'published.json');
    const pub = JSON.parse(readFileSync(path, 'utf8'));
    const reversed = Object.fromEntries(Object.entries(pub.fingerprints).reverse());
    writeFileSync(path, JSON.stringify({ fingerprints: reversed, version: pub.version }));
    assert.equal(rules(await verify(dir)), []);
  }));

test.run();
