import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Suite } from '../conformance/case-types.ts';
import { loadSuiteCached, type SuiteCache } from '../conformance/suite-cache.ts';
import type { CliIo } from './io.ts';

/** `loadSuite(dir)` through the parsed-suite cache this CLI has, unless PROSE_STATE_NO_SUITE_CACHE is set. */
export function loadCliSuite(dir: string, io: Pick<CliIo, 'env' | 'suiteCache'>): Suite {
  const cache = io.env.PROSE_STATE_NO_SUITE_CACHE ? undefined : (io.suiteCache ?? checkoutSuiteCache());
  return loadSuiteCached(dir, cache || undefined).suite;
}

/**
 * From a checkout (the sources run through tsx): snapshots in `.cache/prose-state/` (gitignored) inside it, keyed on
 * every file of src/ and the yaml package the loader imports. All of src/, not the loader's imports alone: a walk
 * of import lines that missed one form would serve an old parse after a change to that file, and hashing src/
 * (~3 MB) takes ~20 ms against the ~400 ms parse. Elsewhere (a bundle with no sources beside it) there is no cache.
 */
function checkoutSuiteCache(): SuiteCache | undefined {
  const src = fileURLToPath(new URL('..', import.meta.url));
  if (!existsSync(join(src, 'conformance', 'suite-cache.ts'))) return undefined;
  const root = dirname(src);
  return { dir: join(root, '.cache', 'prose-state'), codeKey: sourcesKey(src), within: root };
}

/** sha256 over every file under `src` (its path from there, its length, its bytes) and the yaml package's manifest. */
export function sourcesKey(src: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.isFile()) {
        const bytes = readFileSync(path);
        hash.update(`${relative(src, path).split(sep).join('/')}\0${bytes.length}\0`);
        hash.update(bytes);
      }
    }
  };
  walk(src);
  hash.update(readFileSync(createRequire(import.meta.url).resolve('yaml/package.json')));
  return hash.digest('hex');
}
