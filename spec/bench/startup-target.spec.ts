import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { BenchReport, StartupResult } from '../../src/bench/bench-report.ts';
import { flattenRatios } from '../../src/bench/flatten-ratios.ts';
import { evaluateTargets } from '../../src/bench/targets.ts';

// Only the startup section matters here; the other sections are empty or skipped.
function report(startup: Partial<StartupResult>): BenchReport {
  const s: StartupResult = {
    binary: 'b',
    node: 'n',
    nodeVersion: 'v24.22.3',
    binaryNodeVersion: 'v24.22.3',
    comparable: true,
    runs: 5,
    binaryMs: 50,
    nodeMs: 40,
    ratio: 1.25,
    ...startup,
  };
  return {
    workloads: [],
    receipts: { skipped: 'none' },
    backends: [],
    memory: { skipped: 'none' },
    startup: s,
  } as unknown as BenchReport;
}
const startupTarget = (r: BenchReport) => evaluateTargets(r).find((t) => t.id === 'startup')!;

test('the start of a binary is judged against node -e 0 of the same Node', () => {
  assert.is(startupTarget(report({})).met, true);
  assert.is(startupTarget(report({ ratio: 1.6, binaryMs: 64 })).met, false);
  assert.is(flattenRatios(report({}))['startup.node'], 1.25);
});

test('against another Node the start is reported but neither judged nor gated', () => {
  const r = report({ nodeVersion: 'v20.20.2', comparable: false, ratio: 0.4 });
  const t = startupTarget(r);
  assert.is(t.met, null);
  assert.match(t.actual, /Node v24\.22\.3.*v20\.20\.2.*--node/);
  assert.is('startup.node' in flattenRatios(r), false);
});

test.run();
