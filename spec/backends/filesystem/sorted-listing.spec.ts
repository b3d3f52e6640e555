import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SortedListing } from '../../../src/backends/filesystem/sorted-listing.ts';
import { tempEnv } from '../../helpers/temp-env.ts';

// Issue 35: state.md's Index lists bindings/ in name order on every VM event; the listing places only the names
// added since the last call instead of sorting ten thousand again. It must always equal a fresh sort.

test('names added, removed and added in batches are listed as readdir().sort() lists them', () => {
  const env = tempEnv();
  const dir = join(env.root, 'bindings');
  mkdirSync(dir);
  const listing = new SortedListing();
  const add = (name: string) => writeFileSync(join(dir, name), '');
  let seed = 7;
  const next = () => (seed = (seed * 16807) % 2147483647);
  for (let round = 0; round < 300; round++) {
    const r = next() % 10;
    const present = readdirSync(dir);
    if (r < 7 || present.length === 0) add(`b${next() % 500}${r === 0 ? 'é' : ''}.md`);
    else if (r < 9) rmSync(join(dir, present[next() % present.length]!));
    else for (let k = 0; k < 5; k++) add(`z${next() % 50}.md`);
    assert.equal(listing.names(dir), readdirSync(dir).sort(), `round ${round}`);
  }
  env.cleanup();
});

test.run();
