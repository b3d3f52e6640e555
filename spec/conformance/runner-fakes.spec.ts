import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { builtinSuite } from '../helpers/builtin-suite.ts';
import { runSuite } from '../../src/conformance/run-suite.ts';
import type { CaseResult } from '../../src/conformance/outcome.ts';
import type { BackendFactory } from '../../src/core/backend.ts';
import { hangs, rootFirst, throwsTypeError, tornWrite, wrongCodes } from '../helpers/fake-backends.ts';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';

const suite = builtinSuite();
const silent = { header() {}, result() {}, footer() {} };

async function run(factory: BackendFactory, area: string, stepTimeoutMs = 30_000): Promise<CaseResult[]> {
  return runSuite({
    suite,
    factories: [factory],
    decisions: DEFAULT_DECISIONS,
    filter: { areas: [area], ids: [] },
    listener: silent,
    stepTimeoutMs,
  });
}
const statuses = (rs: CaseResult[]) => rs.map((r) => r.outcome.status);

test('the reference filesystem backend passes the scope cases (the control)', async () => {
  const rs = await run(filesystemFactory, 'scope-resolution');
  assert.ok(rs.length >= 10);
  assert.equal(
    statuses(rs).filter((s) => s !== 'passed'),
    [],
  );
});

test('root found before the local frame is reported as failed, never passed', async () => {
  const rs = await run(rootFirst, 'scope-resolution');
  const shadow = rs.find((r) => r.id === 'scope-resolution/local-shadows-root')!;
  assert.is(shadow.outcome.status, 'failed');
  if (shadow.outcome.status === 'failed') assert.match(shadow.outcome.message, /expected "local", saw "root"/);
  assert.ok(statuses(rs).includes('failed'));
});

test('a torn read-back fails with expected and seen values', async () => {
  const rs = await run(tornWrite, 'scope-resolution');
  const r = rs.find((x) => x.id === 'scope-resolution/root-from-root')!;
  assert.is(r.outcome.status, 'failed');
  if (r.outcome.status === 'failed') {
    assert.is(r.outcome.at.file.endsWith('scope-resolution.yaml'), true);
    assert.ok(r.outcome.at.line > 1);
  }
});

test('an exception inside the backend is errored, kept apart from failures', async () => {
  const rs = await run(throwsTypeError, 'scope-resolution');
  const r = rs.find((x) => x.id === 'scope-resolution/root-from-root')!;
  assert.is(r.outcome.status, 'errored');
  if (r.outcome.status === 'errored') assert.is(r.outcome.error.code, 'E_BACKEND');
  assert.not.ok(statuses(rs).includes('passed') && statuses(rs).every((s) => s === 'passed'));
});

test('a backend that hangs is errored after the step timeout and the run goes on', async () => {
  const rs = await run(hangs, 'scope-resolution', 200);
  assert.ok(rs.length >= 10);
  const r = rs.find((x) => x.id === 'scope-resolution/root-from-root')!;
  assert.is(r.outcome.status, 'errored');
  if (r.outcome.status === 'errored') assert.match(r.outcome.error.message, /timed out after 200 ms/);
});

test('answering the wrong error code fails the case', async () => {
  const rs = await run(wrongCodes, 'scope-resolution');
  const r = rs.find((x) => x.id === 'scope-resolution/missing-name')!;
  assert.is(r.outcome.status, 'failed');
  if (r.outcome.status === 'failed') assert.match(r.outcome.message, /expected error E_NOT_FOUND, got E_STATE/);
});

test('every case gets its own directory, removed afterwards', async () => {
  const dirs: string[] = [];
  const spy: BackendFactory = {
    ...filesystemFactory,
    name: 'spy',
    open: async (env) => {
      dirs.push(env.projectDir);
      return filesystemFactory.open(env);
    },
  };
  await run(spy, 'scope-resolution');
  assert.is(new Set(dirs.map((d) => join(d, '..'))).size >= 10, true);
  const { existsSync } = await import('node:fs');
  assert.equal(
    dirs.filter((d) => existsSync(d)),
    [],
  );
});

test.run();
