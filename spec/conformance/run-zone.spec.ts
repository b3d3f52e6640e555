import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.ts';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';
import type { BackendFactory } from '../../src/core/backend.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { builtinSuite } from '../helpers/builtin-suite.ts';
import { runSuite, type RunHeader } from '../../src/conformance/run-suite.ts';
import { checkZone, enterZone, RUN_ZONES, zoneForSeed } from '../../src/conformance/run-zone.ts';
import { judgeInstant } from '../../src/conformance/steps/clock.ts';
import { MUTANTS } from '../../src/selftest/mutants/index.ts';
import { captureIo } from '../helpers/temp-suite.ts';

// Backends run under a zone that is not UTC (issue 36): picked by the seed, set for in-process backends and inherited
// by every process the run starts, named in the header; the clock step compares UTC stamps with readings around a call.
const suite = builtinSuite();
const worker = [process.execPath, fileURLToPath(new URL('../../bin/prose-state.js', import.meta.url))];
const CASES = ['run-ids/generated-id-is-the-utc-now', 'segment-numbering/default-timestamp-is-the-utc-now'];
const localTime = MUTANTS.find((m) => m.name === 'local-time-stamps')!;

/** Minutes east of UTC of `zone` at `at`, read through Intl (no TZ change). */
function offsetMinutes(zone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    ...{ year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' },
  }).formatToParts(at);
  const n = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  return (Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute')) - at.getTime()) / 60_000;
}

async function run(f: BackendFactory, tz: string | undefined, id: string, jobs = 1) {
  const headers: RunHeader[] = [];
  const before = process.env.TZ;
  const results = await runSuite({
    suite,
    factories: [f],
    decisions: DEFAULT_DECISIONS,
    filter: { areas: [], ids: [id] },
    listener: { header: (h) => headers.push(h), result() {}, footer() {} },
    workerCommand: worker,
    seed: 7,
    ...(tz ? { tz } : {}),
    ...(jobs > 1 ? { jobs, caseWorkers: true } : {}),
  });
  assert.is(process.env.TZ, before, 'the run puts TZ back as it found it');
  return { outcome: results[0]!.outcome, header: headers[0]! };
}

test('every zone a seed picks is known to Node and off UTC in January and in July; the seed spreads over all', () => {
  for (const zone of RUN_ZONES) {
    assert.is(checkZone(zone), zone);
    for (const at of [new Date(Date.UTC(2026, 0, 15)), new Date(Date.UTC(2026, 6, 15))])
      assert.not.equal(offsetMinutes(zone, at), 0, `${zone} at ${at.toISOString()}`);
  }
  const offsets = RUN_ZONES.map((z) => offsetMinutes(z, new Date(Date.UTC(2026, 0, 15))));
  assert.ok(offsets.some((o) => o > 0) && offsets.some((o) => o < 0), 'a positive and a negative offset');
  assert.ok(
    offsets.some((o) => o % 60 !== 0),
    'a zone off by a part of an hour',
  );
  assert.equal(new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map(zoneForSeed)), new Set(RUN_ZONES));
  assert.is(zoneForSeed(12345), zoneForSeed(12345));
});

test('checkZone refuses a name Node does not know, as a usage error naming it', () => {
  try {
    checkZone('Mars/Olympus_Mons');
    assert.unreachable('accepted an unknown zone');
  } catch (err) {
    assert.is((err as { code?: string }).code, 'E_USAGE');
    assert.match((err as Error).message, /Mars\/Olympus_Mons/);
  }
});

test('enterZone sets TZ (local time moves with it) and the last run to end puts it back', () => {
  const before = process.env.TZ;
  const at = new Date(Date.UTC(2026, 0, 15, 12));
  const leaveA = enterZone('Asia/Kolkata');
  assert.is(at.getHours(), 17);
  const leaveB = enterZone('America/Los_Angeles');
  assert.is(at.getHours(), 4);
  leaveB();
  assert.is(process.env.TZ, 'Asia/Kolkata');
  leaveA();
  leaveA(); // a second call changes nothing
  assert.is(process.env.TZ, before);
});

test('judgeInstant: a run id or Z stamp within the readings (to the second) passes; one hours off says so', () => {
  const from = Date.UTC(2026, 0, 15, 14, 30, 52, 900);
  const to = Date.UTC(2026, 0, 15, 14, 30, 53, 100);
  assert.is(judgeInstant('20260115-143052-a7b3c9', from, to), undefined);
  assert.is(judgeInstant('2026-01-15T14:30:53Z', from, to), undefined);
  assert.is(judgeInstant('2026-01-15T14:30:53.5Z', from, to), undefined);
  assert.match(judgeInstant('20260115-200052-a7b3c9', from, to)!, /330 minutes after/);
  assert.match(judgeInstant('2026-01-15T06:30:52Z', from, to)!, /480 minutes before/);
  assert.match(judgeInstant('2026-01-15T14:30:52+00:00', from, to)!, /neither a run id/);
  assert.match(judgeInstant('20260115-143052-a7b3c9', 'x', to)!, /clock readings/);
});

test('the header names the zone: the seed picks one, --tz replaces it', async () => {
  const fs = { ...filesystemFactory, spec: 'filesystem' };
  assert.is((await run(fs, undefined, CASES[0]!)).header.tz, zoneForSeed(7));
  assert.is((await run(fs, 'America/St_Johns', CASES[0]!)).header.tz, 'America/St_Johns');
});

test('a backend stamping local time passes under UTC and fails under every zone the runner picks', async () => {
  for (const id of CASES) {
    assert.is((await run(localTime.factory, 'UTC', id)).outcome.status, 'passed', `${id} under UTC`);
    for (const zone of RUN_ZONES) {
      const { outcome } = await run(localTime.factory, zone, id);
      assert.is(outcome.status, 'failed', `${id} under ${zone}`);
      if (outcome.status === 'failed') assert.match(outcome.message, new RegExp(`TZ is ${zone}`));
    }
    assert.is((await run({ ...filesystemFactory, spec: 'filesystem' }, 'Asia/Kathmandu', id)).outcome.status, 'passed');
  }
});

test('case worker processes run under the zone too (they inherit it): the mutant fails there as well', async () => {
  const { outcome } = await run(localTime.factory, 'Pacific/Auckland', CASES[0]!, 2);
  assert.is(outcome.status, 'failed', JSON.stringify(outcome));
});

test('test --tz: an unknown zone is a usage error; a known one is the header tz', async () => {
  const bad = captureIo();
  const code = await main(['test', '--backend', 'filesystem', '--case', CASES[0]!, '--tz', 'Nowhere/X'], bad.io);
  assert.is(code, 2);
  assert.match(bad.err(), /Nowhere\/X/);
  const good = captureIo({ PROSE_STATE_TZ: 'Asia/Kathmandu' });
  const args = ['test', '--backend', 'filesystem', '--case', CASES[0]!, '--reporter', 'json', '--no-probe'];
  assert.is(await main(args, good.io), 0);
  assert.match(good.out(), /"tz":"Asia\/Kathmandu"/);
});

test.run();
