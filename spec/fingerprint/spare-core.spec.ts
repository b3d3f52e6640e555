import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { reapedChildrenMs, spareBetween, spareCore, SpareCoreJudge } from '../../src/fingerprint/spare-core.ts';

const at = (t: number, busyMs: number, oursMs: number) => ({ at: t, busyMs, oursMs });

test("between two samples, only the others' CPU time counts, not this process's", () => {
  // 1 s on 2 cores: 1.9 core-seconds busy, 1.8 of them ours (a parallel read): the others used 0.1 core.
  assert.ok(spareBetween(at(0, 0, 0), at(1000, 1900, 1800), 2, 9));
  // The same busy time, 0.4 core-seconds ours: the others used 1.5 cores, none is left.
  assert.not.ok(spareBetween(at(0, 0, 0), at(1000, 1900, 400), 2, 0));
  // 4 cores, the others on 2.6: under half a core left beside this process; on 2.4, more.
  assert.not.ok(spareBetween(at(0, 0, 0), at(1000, 2800, 200), 4, 0));
  assert.ok(spareBetween(at(0, 0, 0), at(1000, 2600, 200), 4, 9));
});

test('without a usable window the 1-minute load average decides (it counts this process too)', () => {
  for (const [prev, now] of [
    [undefined, at(0, 0, 0)],
    [at(0, 0, 0), at(50, 0, 0)], // too short for 10 ms ticks
    [at(0, 0, 0), at(60_000, 0, 0)], // too old to say much about now
  ] as const) {
    assert.ok(spareBetween(prev, now, 2, 1.2));
    assert.not.ok(spareBetween(prev, now, 2, 1.6));
  }
  assert.not.ok(spareBetween(undefined, undefined, 2, 1.6));
});

test('asked again within 100 ms, the last answer stands and the window grows from its start', () => {
  const judge = new SpareCoreJudge();
  assert.ok(judge.ask(at(0, 0, 0), 2, 1.0), 'no window yet: the load average');
  // 500 ms later the others used a full core: no core is free.
  assert.not.ok(judge.ask(at(500, 600, 100), 2, 1.0));
  // 60 ms later (a warm-up call just before): the same answer, though the load average says free.
  assert.not.ok(judge.ask(at(560, 620, 160), 2, 1.0));
  // 300 ms after the window's start, the others were idle since: measured from 500 ms, free again.
  assert.ok(judge.ask(at(800, 900, 400), 2, 9));
});

test("a child that ended and was waited for counts as this process's, not as another's", () => {
  const before = reapedChildrenMs();
  if (!existsSync('/proc/self/stat')) {
    assert.is(before, 0, 'without /proc nothing is counted');
    return;
  }
  // 300 ms of the child's own CPU time (however busy the machine), waited for: the kernel adds it to our cutime.
  const spin =
    'const u = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; }; while (u() < 300);';
  const r = spawnSync(process.execPath, ['-e', spin]);
  assert.is(r.status, 0);
  const grew = reapedChildrenMs() - before;
  assert.ok(grew >= 250 && grew < 5000, `the children's CPU grew by ${grew} ms`);
});

test('spareCore answers from the live machine and never throws', () => {
  assert.type(spareCore(), 'boolean');
  assert.type(spareCore(), 'boolean');
});

test.run();
