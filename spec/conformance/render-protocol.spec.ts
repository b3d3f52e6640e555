import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';
import { builtinSuite } from '../helpers/builtin-suite.ts';
import type { CaseResult } from '../../src/conformance/outcome.ts';
import { runSuite } from '../../src/conformance/run-suite.ts';
import type { BackendFactory } from '../../src/core/backend.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { inEditionOf, type Mutant } from '../../src/selftest/mutant.ts';
import { CONTROL, MUTANTS } from '../../src/selftest/mutants/index.ts';
import { RENDER_MUTANTS } from '../../src/selftest/mutants/render.ts';

const suite = builtinSuite();
const silent = { header() {}, result() {}, footer() {} };

async function run(factory: BackendFactory, checker?: Mutant['checker']): Promise<CaseResult[]> {
  return runSuite({
    suite,
    factories: [factory],
    decisions: DEFAULT_DECISIONS,
    filter: { areas: [], ids: ['session-protocol/render-*'] },
    listener: silent,
    stepTimeoutMs: 30_000,
    ...(checker ? { checkerBug: checker } : {}),
  });
}
const notPassed = (rs: CaseResult[]) =>
  rs.filter((r) => r.outcome.status !== 'passed').map((r) => `${r.id}: ${JSON.stringify(r.outcome).slice(0, 400)}`);

test('the render cases skip on a v0 backend, with the edition named', async () => {
  const rs = await run(filesystemFactory);
  assert.ok(rs.length >= 9);
  for (const r of rs) {
    assert.is(r.outcome.status, 'skipped');
    if (r.outcome.status === 'skipped') assert.match(r.outcome.reason, /current edition/);
  }
});

test('every render case passes on the filesystem backend judged by the current edition', async () => {
  const rs = await run({ ...filesystemFactory, edition: 'current' });
  assert.ok(rs.length >= 9);
  assert.equal(notPassed(rs), []);
});

// The mutant harness opens its storage in the edition it is judged in (src/selftest/mutant.ts), so the render mutants
// and the control are judged in the current edition on the filesystem backend's own current tree.
test('the unmutated mutant harness judged in the current edition passes every render case (the control)', async () => {
  const rs = await run(inEditionOf(CONTROL, 'current').factory);
  assert.ok(rs.length >= 9);
  assert.equal(notPassed(rs), []);
});

const killers = async (m: Mutant) => {
  const rs = await run(m.factory, m.checker);
  return rs.filter((r) => r.outcome.status === 'failed' || r.outcome.status === 'errored').map((r) => r.id);
};

test('a render that commits its own world-model is killed only by render-may-not-commit', async () => {
  const m = RENDER_MUTANTS.find((x) => x.name === 'render-commits-own-world-model')!;
  assert.equal(await killers(m), ['session-protocol/render-render-may-not-commit']);
});

test('a checker taking a v0 reply is killed by the v0-reply case, one taking a mixed reply by the mixed-reply case', async () => {
  const v0 = RENDER_MUTANTS.find((x) => x.name === 'checker-v0-reply-accepted')!;
  assert.equal(await killers(v0), ['session-protocol/render-v0-reply-refused']);
  const mixed = RENDER_MUTANTS.find((x) => x.name === 'checker-mixed-reply-accepted')!;
  assert.equal(await killers(mixed), ['session-protocol/render-mixed-reply-refused']);
});

test('the render mutants are in MUTANTS, each judged in the current edition on the session-protocol cases', () => {
  for (const m of RENDER_MUTANTS) {
    assert.ok(MUTANTS.includes(m), m.name);
    assert.equal([m.edition, m.areas, m.factory.edition], ['current', ['session-protocol'], 'current'], m.name);
  }
});

test.run();
