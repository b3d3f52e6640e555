import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { deepStrictEqual } from 'node:assert';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { loadSuite } from '../../src/conformance/load-suite.ts';
import { loadSuiteCached, type SuiteCache } from '../../src/conformance/suite-cache.ts';
import { ProseError } from '../../src/core/errors.ts';
import { ONE_CASE_FILE, tempSuite } from '../helpers/temp-suite.ts';

const SUITE = new URL('../../conformance', import.meta.url).pathname;

/** A suite folder and a cache beside it; `within` is the suite's own folder. */
function setup(files: Record<string, string>) {
  const suite = tempSuite(files);
  const cache: SuiteCache = { dir: join(suite, '.cache'), codeKey: 'code-1', within: suite };
  return { suite, cache, done: () => rmSync(suite, { recursive: true, force: true }) };
}

const snapshots = (cache: SuiteCache) => (existsSync(cache.dir) ? readdirSync(cache.dir) : []);
/** The case file with a `-0` in what it expects: JSON would bring it back as 0. */
const NEG_ZERO = ONE_CASE_FILE.replace('error: E_NOT_FOUND', 'expect: { name: x, n: -0 }');

test('the whole suite from the cache is the suite parsed, -0 and case positions included', () => {
  const root = mkdtempSync(join(tmpdir(), 'prose-suite-cache-'));
  try {
    cpSync(join(SUITE, 'suite.yaml'), join(root, 'suite.yaml'));
    cpSync(join(SUITE, 'cases'), join(root, 'cases'), { recursive: true });
    const cache = { dir: join(root, '.cache'), codeKey: 'code-1', within: root };
    const first = loadSuiteCached(root, cache);
    assert.equal(first.source, { from: 'parse', why: 'miss' });
    const again = loadSuiteCached(root, cache);
    assert.equal(again.source, { from: 'cache' });
    deepStrictEqual(again.suite, first.suite); // node's strict equality tells -0 from 0
    const c = again.suite.cases.find((x) => x.id === 'deterministic-fingerprints/canonical-json-numbers')!;
    assert.ok(findNegZero(c.steps), 'the -0 survives');
    assert.not.ok(findNegZero(JSON.parse(JSON.stringify(c.steps))), 'where JSON would lose it');
    assert.match(c.pos.file, /deterministic-fingerprints\.yaml$/);
    assert.is(c.pos.line, first.suite.cases.find((x) => x.id === c.id)!.pos.line);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

/** Whether a -0 is anywhere in `v`. */
function findNegZero(v: unknown): boolean {
  if (Object.is(v, -0)) return true;
  return typeof v === 'object' && v !== null && Object.values(v).some(findNegZero);
}

test('a changed byte of a case file, or a changed loader key, is a miss and a new parse', () => {
  const { suite, cache, done } = setup({ 'a.yaml': NEG_ZERO });
  try {
    loadSuiteCached(suite, cache);
    assert.equal(loadSuiteCached(suite, cache).source, { from: 'cache' });
    writeFileSync(join(suite, 'cases', 'a.yaml'), NEG_ZERO.replace('title: one', 'title: onf'));
    const edited = loadSuiteCached(suite, cache);
    assert.equal(edited.source, { from: 'parse', why: 'stale' });
    assert.is(edited.suite.cases[0]!.title, 'onf');
    assert.equal(loadSuiteCached(suite, cache).source, { from: 'cache' });
    // Another loader reads its own snapshot: the old one is never served to it, and is kept for the old loader.
    const newCode = loadSuiteCached(suite, { ...cache, codeKey: 'code-2' });
    assert.equal(newCode.source, { from: 'parse', why: 'miss' });
    assert.equal(loadSuiteCached(suite, { ...cache, codeKey: 'code-2' }).source, { from: 'cache' });
    assert.equal(loadSuiteCached(suite, cache).source, { from: 'cache' });
    writeFileSync(join(suite, 'cases', 'b.yaml'), ONE_CASE_FILE.replace(/\ba\//g, 'b/').replace('area: a', 'area: b'));
    const added = loadSuiteCached(suite, { ...cache, codeKey: 'code-2' });
    assert.equal(added.source, { from: 'parse', why: 'stale' }, 'a new case file is a change too');
    assert.is(added.suite.cases.length, 2);
  } finally {
    done();
  }
});

test('from another working directory the snapshot is its own: case positions are relative to the cwd', () => {
  const { suite, cache, done } = setup({ 'a.yaml': ONE_CASE_FILE });
  const here = process.cwd();
  try {
    const fromHere = loadSuiteCached(suite, cache);
    assert.is(fromHere.suite.cases[0]!.pos.file, relative(here, join(suite, 'cases', 'a.yaml')));
    process.chdir(suite);
    const there = loadSuiteCached(suite, cache);
    assert.equal(there.source, { from: 'parse', why: 'miss' });
    assert.is(there.suite.cases[0]!.pos.file, join('cases', 'a.yaml'));
    assert.equal(loadSuiteCached(suite, cache).source, { from: 'cache' });
    process.chdir(here);
    const back = loadSuiteCached(suite, cache);
    assert.equal(back.source, { from: 'cache' });
    assert.is(back.suite.cases[0]!.pos.file, fromHere.suite.cases[0]!.pos.file);
  } finally {
    process.chdir(here);
    done();
  }
});

test('a truncated, altered or garbage snapshot falls back to the parse', () => {
  const { suite, cache, done } = setup({ 'a.yaml': NEG_ZERO });
  try {
    const fresh = loadSuiteCached(suite, cache).suite;
    assert.ok(findNegZero(fresh.cases), 'the case holds a -0');
    const [name] = snapshots(cache);
    const file = join(cache.dir, name!);
    const good = readFileSync(file);
    // One letter of the suite's name: still a well-formed snapshot, only its checksum tells.
    const flipped = Buffer.from(good);
    flipped[flipped.lastIndexOf('temp') + 2]! ^= 1;
    const damaged = { truncated: good.subarray(0, good.length - 10), flipped, garbage: Buffer.from('not a snapshot') };
    for (const [what, bytes] of Object.entries(damaged)) {
      writeFileSync(file, bytes);
      const back = loadSuiteCached(suite, cache);
      assert.equal(back.source, { from: 'parse', why: 'corrupt' }, what);
      deepStrictEqual(back.suite, fresh);
      assert.equal(loadSuiteCached(suite, cache).source, { from: 'cache' }, `${what}: the parse replaced it`);
    }
  } finally {
    done();
  }
});

test('a cache folder that cannot be made, or a suite outside `within`, is parsed every time and nothing is kept', () => {
  const { suite, cache, done } = setup({ 'a.yaml': ONE_CASE_FILE });
  try {
    writeFileSync(join(suite, 'blocker'), 'a file where the folder would go');
    const blocked = { ...cache, dir: join(suite, 'blocker', 'cache') };
    assert.equal(loadSuiteCached(suite, blocked).source, { from: 'parse', why: 'miss' });
    assert.equal(loadSuiteCached(suite, blocked).source, { from: 'parse', why: 'miss' });
    const outside = { ...cache, within: join(suite, 'cases') };
    assert.equal(loadSuiteCached(suite, outside).source, { from: 'parse', why: 'outside' });
    assert.equal(snapshots(cache), []);
  } finally {
    done();
  }
});

test('a suite with an error throws the parse error every time and is never kept', () => {
  const { suite, cache, done } = setup({
    'a.yaml': ONE_CASE_FILE.replace('title: one', 'title: one\n    colour: red'),
  });
  try {
    for (let i = 0; i < 2; i++) {
      try {
        loadSuiteCached(suite, cache);
        assert.unreachable('the suite has an unknown field');
      } catch (err) {
        assert.instance(err, ProseError);
        assert.is((err as ProseError).code, 'E_CASE');
        assert.match((err as ProseError).message, /unknown field "colour"/);
      }
    }
    assert.equal(snapshots(cache), []);
    rmSync(join(suite, 'cases'), { recursive: true });
    assert.throws(() => loadSuiteCached(suite, cache), /no cases directory/);
  } finally {
    done();
  }
});

test('without a cache (or a code key) the suite is parsed as loadSuite parses it', () => {
  const { suite, cache, done } = setup({ 'a.yaml': NEG_ZERO });
  try {
    const none = loadSuiteCached(suite, undefined);
    assert.equal(none.source, { from: 'parse', why: 'no cache' });
    assert.equal(loadSuiteCached(suite, { ...cache, codeKey: '' }).source, { from: 'parse', why: 'no cache' });
    deepStrictEqual(none.suite, loadSuite(suite));
    assert.equal(snapshots(cache), []);
  } finally {
    done();
  }
});

test.run();
