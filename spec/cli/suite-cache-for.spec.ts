import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.ts';
import { sourcesKey } from '../../src/cli/suite-cache-for.ts';
import type { SuiteCache } from '../../src/conformance/suite-cache.ts';
import { captureIo, ONE_CASE_FILE, tempSuite } from '../helpers/temp-suite.ts';

test('the checkout key changes with any byte, name or file of src/, and only then', () => {
  const src = mkdtempSync(join(tmpdir(), 'prose-src-'));
  try {
    mkdirSync(join(src, 'conformance'));
    writeFileSync(join(src, 'conformance', 'load-suite.ts'), 'export const a = 1;\n');
    writeFileSync(join(src, 'b.ts'), 'export const b = 2;\n');
    const first = sourcesKey(src);
    assert.is(sourcesKey(src), first);
    writeFileSync(join(src, 'conformance', 'load-suite.ts'), 'export const a = 2;\n');
    const edited = sourcesKey(src);
    assert.is.not(edited, first);
    writeFileSync(join(src, 'conformance', 'step.ts'), '');
    const added = sourcesKey(src);
    assert.is.not(added, edited);
    rmSync(join(src, 'conformance', 'step.ts'));
    assert.is(sourcesKey(src), edited);
    rmSync(join(src, 'b.ts'));
    writeFileSync(join(src, 'c.ts'), 'export const b = 2;\n');
    assert.is.not(sourcesKey(src), edited, 'a renamed file is a change');
  } finally {
    rmSync(src, { recursive: true, force: true });
  }
});

/** `test` on a one-case suite with the given cache and environment; what the cache folder holds after. */
async function runWith(suiteCache: (suite: string) => SuiteCache, env = {}) {
  const suite = tempSuite({ 'a.yaml': ONE_CASE_FILE });
  const cacheDir = join(suite, '.cache');
  const c = captureIo(env);
  try {
    const code = await main(['test', '--suite', suite, '--backend', 'filesystem', '--no-probe', '--jobs', '1'], {
      ...c.io,
      suiteCache: suiteCache(suite),
    });
    return { code, kept: existsSync(cacheDir) ? readdirSync(cacheDir) : [] };
  } finally {
    rmSync(suite, { recursive: true, force: true });
  }
}

const cacheIn = (suite: string): SuiteCache => ({ dir: join(suite, '.cache'), codeKey: 'spec', within: suite });

test('`test` keeps its parse in the cache the CLI is given, and none when PROSE_STATE_NO_SUITE_CACHE is set', async () => {
  const kept = await runWith(cacheIn);
  assert.is(kept.code, 0);
  assert.is(kept.kept.length, 1);
  assert.match(kept.kept[0]!, /\.v8$/);
  const off = await runWith(cacheIn, { PROSE_STATE_NO_SUITE_CACHE: '1' });
  assert.is(off.code, 0);
  assert.equal(off.kept, []);
});

test.run();
