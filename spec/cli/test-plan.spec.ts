import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { expectUsage } from './expect-usage.ts';
import type { BackendFactory } from '../../src/core/backend.ts';
import type { Case, Suite } from '../../src/conformance/case-types.ts';
import type { RerunPlan } from '../../src/conformance/report-file/failed-cases.ts';
import { parseTestOptions } from '../../src/cli/commands/test-options.ts';
import { needsWorkerBundle, planRounds, planTest } from '../../src/cli/commands/test-plan.ts';

// The plan is pure: a suite, the options and a rerun's report in, what to run out; no process, no backend.
const kase = (id: string, steps: unknown[] = []): Case =>
  ({ id, area: id.split('/')[0]!, title: id, spec: '', requires: [], run: true, steps, pos: {} }) as unknown as Case;
const SUITE: Suite = {
  name: 'temp',
  version: '0.0.1',
  dir: '/nowhere',
  cases: [kase('a/one'), kase('a/two'), kase('b/one')],
};
const plan = (argv: string[], rerun?: RerunPlan, env: Record<string, string> = {}) =>
  planTest(parseTestOptions(argv, env), SUITE, rerun, 4);
const run = (argv: string[], rerun?: RerunPlan) => {
  const p = plan(argv, rerun);
  if (p.kind !== 'run') throw new Error('expected a run');
  return p;
};
const usage = expectUsage;
const factory = (name: string, spec = name) => ({ name, spec }) as unknown as BackendFactory;
const REPORT: RerunPlan = {
  failed: new Map([
    ['filesystem', ['a/one']],
    ['sqlite', ['a/two', 'a/one']],
  ]),
  editions: new Map([
    ['filesystem', 'v0'],
    ['sqlite', 'v0'],
  ]),
  seed: 7,
  decisions: { attachmentThresholdBytes: 5 },
  cutOff: ['sqlite'],
};

test('defaults: every backend, every case, the cores as jobs, pretty on stdout, probes on', () => {
  const p = run([]);
  assert.equal(p.backends, ['all']);
  assert.equal(p.filter, { areas: [], ids: [] });
  assert.equal(
    [p.jobs, p.reporter, p.probe, p.seed, p.timeoutMs, p.shard],
    [4, 'pretty', true, undefined, undefined, undefined],
  );
  assert.equal(p.notes, []);
  assert.is(p.perBackend, undefined);
});

test('options and their environment twins land in the plan', () => {
  const p = run(['--backend', 'sqlite', '--area', 'a', '--jobs', '2', '--timeout', '50', '--seed', '3', '--quick']);
  assert.equal([p.backends, p.filter.areas, p.jobs, p.timeoutMs, p.seed, p.quick], [['sqlite'], ['a'], 2, 50, 3, true]);
  const e = planTest(parseTestOptions([], { PROSE_STATE_NO_PROBE: '1', PROSE_STATE_JOBS: '1' }), SUITE, undefined, 4);
  assert.equal(e.kind === 'run' && [e.probe, e.jobs], [false, 1]);
});

test('bad numbers, an empty selection and --durations without --shard are usage errors by name', () => {
  usage(() => plan(['--jobs', '0']), /--jobs/);
  usage(() => plan(['--timeout', '-1']), /--timeout/);
  usage(() => plan(['--seed', 'x']), /--seed/);
  usage(() => plan(['--case', 'c/none']), /no case matches/);
  usage(() => plan(['--durations', 'r.jsonl']), /--durations/);
  usage(() => plan(['--shard', '3/2']), /--shard/);
  usage(() => parseTestOptions(['--decision', 'x'], {}), /--decision takes KEY=NUMBER/);
  usage(() => parseTestOptions(['--bogus'], {}), /'--bogus'/);
});

test('a shard without a seed is noted; with durations it keeps the report to balance by', () => {
  const p = run(['--shard', '1/2', '--durations', 'r.jsonl']);
  assert.equal([p.shard, p.durations], [{ index: 1, count: 2 }, 'r.jsonl']);
  assert.match(p.notes.join(''), /--shard without --seed/);
  assert.equal(run(['--shard', '1/2', '--seed', '1']).notes, []);
});

test('a rerun: the failed ids on the backends they failed on, one round each, with the report seed', () => {
  const p = run(['--rerun-failed', 'r.jsonl'], REPORT);
  assert.equal(p.backends, ['filesystem', 'sqlite']);
  assert.equal(p.filter.ids, ['a/one', 'a/two']);
  assert.is(p.seed, 7);
  assert.match(p.notes.join(''), /the run of sqlite in the report was cut off/);
  const rounds = planRounds(p, [factory('filesystem'), factory('sqlite'), factory('other')]);
  assert.equal(
    rounds.map((r) => ('notInReport' in r ? r.notInReport : r.ids)),
    [['a/one'], ['a/two', 'a/one'], 'other'],
  );
});

test('a rerun with --backend or --case runs once over every backend; an empty report is nothing to rerun', () => {
  const p = run(['--rerun-failed', 'r.jsonl', '--backend', 'postgres'], REPORT);
  assert.equal([p.backends, p.perBackend], [['postgres'], undefined]);
  const rounds = planRounds(p, [factory('postgres')]);
  assert.equal(rounds.length, 1);
  const none = plan(['--rerun-failed', 'r.jsonl'], { ...REPORT, failed: new Map(), cutOff: [] });
  assert.equal(none, {
    kind: 'nothing',
    notes: [],
    message: 'nothing failed or errored in r.jsonl: nothing to rerun\n',
  });
});

test('--edition and PROSE_STATE_EDITION land in the plan (default all); an unknown edition is a usage error', () => {
  assert.is(run([]).edition, 'all');
  assert.is(run(['--edition', 'current']).edition, 'current');
  assert.is(run(['--edition', 'v0']).edition, 'v0');
  const e = planTest(parseTestOptions([], { PROSE_STATE_EDITION: 'current' }), SUITE, undefined, 4);
  assert.is(e.kind === 'run' && e.edition, 'current');
  usage(() => plan(['--edition', 'v1']), /unknown edition "v1"/);
});

test('a rerun reopens a backend once for its failures in two editions, and leaves out an edition nothing failed in', () => {
  const report: RerunPlan = {
    failed: new Map([
      ['filesystem@current', ['a/one']],
      ['postgres:postgres://u@h/db', ['a/two']],
    ]),
    editions: new Map([
      ['filesystem', 'v0'],
      ['filesystem@current', 'current'],
      ['postgres:postgres://u@h/db', 'v0'],
    ]),
    seed: 7,
    decisions: { attachmentThresholdBytes: 5 },
    cutOff: [],
  };
  const p = run(['--rerun-failed', 'r.jsonl'], report);
  // The backend strings to open: the run names without their edition, a URL's '@' left alone.
  assert.equal(p.backends, ['filesystem', 'postgres:postgres://u@h/db']);
  const paired = [
    { ...factory('filesystem'), edition: 'v0' },
    { ...factory('filesystem@current', 'filesystem'), edition: 'current' },
    { ...factory('postgres:postgres://u@h/db'), edition: 'v0' },
  ] as BackendFactory[];
  const rounds = planRounds(p, paired);
  assert.equal(
    rounds.map((r) => ('notInReport' in r ? r.notInReport : [r.factories[0]!.name, r.ids])),
    [
      ['filesystem@current', ['a/one']],
      ['postgres:postgres://u@h/db', ['a/two']],
    ],
  );
});

test('case workers run the bundle with jobs above 1 or a worker-process case, never with a module plugin', () => {
  const crash = kase('c/crash', [{ kind: 'crash' }]);
  const plain = [kase('a/one')];
  assert.is(needsWorkerBundle(2, plain, [factory('filesystem')]), true);
  assert.is(needsWorkerBundle(1, plain, [factory('filesystem')]), false);
  assert.is(needsWorkerBundle(1, [crash], [factory('filesystem')]), true);
  assert.is(needsWorkerBundle(2, plain, [factory('m', 'module:./x.ts')]), false);
});

test('--tz (or PROSE_STATE_TZ) is checked and kept; a rerun replays the zone of the report unless given one', () => {
  assert.is(run(['--tz', 'Asia/Kolkata']).tz, 'Asia/Kolkata');
  assert.is((plan([], undefined, { PROSE_STATE_TZ: 'UTC' }) as { tz?: string }).tz, 'UTC');
  assert.is(run([]).tz, undefined);
  usage(() => plan(['--tz', 'Nowhere/X']), /Nowhere\/X/);
  assert.is(run(['--rerun-failed', 'r.jsonl'], { ...REPORT, tz: 'America/St_Johns' }).tz, 'America/St_Johns');
  assert.is(run(['--rerun-failed', 'r.jsonl', '--tz', 'UTC'], { ...REPORT, tz: 'America/St_Johns' }).tz, 'UTC');
  assert.is(run(['--rerun-failed', 'r.jsonl'], REPORT).tz, undefined);
});

test.run();
