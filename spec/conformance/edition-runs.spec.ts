import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { BackendFactory } from '../../src/core/backend.ts';
import type { Capability } from '../../src/core/capabilities.ts';
import { backendOfRun, editionRuns, inEdition, runName } from '../../src/conformance/edition-runs.ts';
import { expectUsage } from '../cli/expect-usage.ts';

const backend = (name: string, capabilities: Capability[]) =>
  ({ name, spec: name, kind: 'directory', capabilities, description: name }) as unknown as BackendFactory;
const both = backend('both', ['edition:v0', 'edition:current']);
const old = backend('old', []);
const currentOnly = backend('cur', ['edition:current']);
const pairs = (fs: BackendFactory[]) => fs.map((f) => `${f.name}:${f.edition}`);

test('all: every edition a backend declares, v0 for one that declares none, backend by backend', () => {
  const r = editionRuns([both, old, currentOnly], 'all');
  assert.equal(pairs(r.judged), ['both:v0', 'both@current:current', 'old:v0', 'cur@current:current']);
  assert.equal(r.notJudged, []);
});

test('one edition: the backends that declare it, the others named with the reason', () => {
  const r = editionRuns([both, old, currentOnly], 'current');
  assert.equal(pairs(r.judged), ['both@current:current', 'cur@current:current']);
  assert.equal(r.notJudged, [{ backend: 'old', edition: 'current', reason: 'does not declare edition:current' }]);
  assert.equal(pairs(editionRuns([both, old, currentOnly], 'v0').judged), ['both:v0', 'old:v0']);
  expectUsage(() => editionRuns([old], 'current'), /old does not declare edition:current, so nothing would be judged/);
});

test('a run in another edition is NAME@EDITION and keeps its backend string; a URL with @ is never split wrongly', () => {
  const pg = backend('postgres:postgres://u:p@db/x', ['edition:v0', 'edition:current']);
  const cur = inEdition(pg, 'current');
  assert.equal([cur.name, cur.spec, cur.edition], ['postgres:postgres://u:p@db/x@current', pg.spec, 'current']);
  assert.is(backendOfRun(cur.name, 'current'), pg.name);
  assert.is(backendOfRun(pg.name, 'v0'), pg.name);
  assert.is(runName('filesystem', 'v0'), 'filesystem');
});

test.run();
