import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyCommand } from '../../../src/cli/commands/verify.ts';
import { verifyPath } from '../../../src/verify/registry.ts';
import { CURRENT_FIXTURES, RUN_ID, VALID_RUN } from '../current-run/current-copy.ts';
import { REACTOR_DIR } from '../../canon/vectors.ts';
import { captureIo } from '../run-dir/capture-io.ts';
import { FIXTURES, RUN_ID as V0_RUN_ID } from '../run-dir/fixture-copy.ts';

const CURRENT_ROOT = join(CURRENT_FIXTURES, 'valid');

/** A copy of the valid current run that also holds a v0 state.md: no edition of its own. */
function bothMarkers(): { dir: string; cleanup(): void } {
  const base = mkdtempSync(join(tmpdir(), 'prose-edition-cli-'));
  const dir = join(base, RUN_ID);
  cpSync(VALID_RUN, dir, { recursive: true });
  writeFileSync(join(dir, 'state.md'), '# Execution State\n');
  return { dir, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

test('the text report names the edition judged and how, on the line before the summary', async () => {
  const io = captureIo(CURRENT_ROOT);
  assert.is(await verifyCommand.run(['.'], io), 0);
  const lines = io.out().trimEnd().split('\n');
  assert.match(lines.at(-2)!, /^verify: edition current \(detected: an <openprose-root>: runs\/[^/]+\/vm\.log\.md\)$/);
  assert.is(lines.at(-1), 'verify: 0 errors, 0 warnings in current-run .');
  const v0 = captureIo(join(FIXTURES, 'valid'));
  assert.is(await verifyCommand.run(['.'], v0), 0);
  assert.match(
    v0.out(),
    /verify: edition v0 \(detected: a project holding \.prose\/\)\nverify: 0 errors, 0 warnings in prose-dir \.\n$/,
  );
});

test('the JSON report carries {edition, source, evidence}', async () => {
  const io = captureIo(VALID_RUN);
  assert.is(await verifyCommand.run(['.', '--format', 'json'], io), 0);
  const report = JSON.parse(io.out()) as {
    kind: string;
    edition: { edition: string; source: string; evidence: string };
  };
  assert.is(report.kind, 'current-run');
  assert.equal(report.edition, { edition: 'current', source: 'detected', evidence: 'vm.log.md in the run directory' });
});

test('a run with both markers is refused (exit 3, asking for --edition); --edition settles it and says so', async () => {
  const c = bothMarkers();
  try {
    const io = captureIo(c.dir);
    assert.is(await verifyCommand.run(['.'], io), 3);
    assert.match(io.err(), /cannot tell the edition of \.: it holds both state\.md \(v0\) and vm\.log\.md \(current\)/);
    assert.match(io.err(), /--edition v0 or --edition current/);
    const current = captureIo(c.dir);
    assert.is(await verifyCommand.run(['.', '--edition', 'current', '--format', 'json'], current), 0);
    const report = JSON.parse(current.out()) as { kind: string; edition: { edition: string; source: string } };
    assert.equal([report.kind, report.edition.edition, report.edition.source], ['current-run', 'current', 'given']);
    const v0 = await verifyPath(c.dir, { edition: 'v0' });
    assert.equal([v0.kind, v0.edition.edition, v0.edition.source], ['run-dir', 'v0', 'given']);
    assert.ok(
      v0.findings.some((f) => f.rule === 'run.program'),
      'judged by the v0 rules: no program.prose',
    );
  } finally {
    c.cleanup();
  }
});

test('--edition overrides a tree that names the other edition; --kind implies its edition and must agree', async () => {
  const r = await verifyPath(CURRENT_ROOT, { edition: 'v0' });
  assert.is(r.kind, 'prose-dir');
  assert.match(r.edition.evidence, /^--edition v0; the tree reads as current/);
  const k = await verifyPath(VALID_RUN, { kind: 'current-run' });
  assert.equal(k.edition, { edition: 'current', source: 'kind', evidence: '--kind current-run' });
  const io = captureIo(VALID_RUN);
  assert.is(await verifyCommand.run(['.', '--kind', 'run-dir', '--edition', 'current'], io), 2);
  assert.match(io.err(), /--kind run-dir judges v0, not --edition current/);
  const bad = captureIo(VALID_RUN);
  assert.is(await verifyCommand.run(['.', '--edition', 'v1'], bad), 2);
  assert.match(bad.err(), /unknown edition "v1"/);
});

test('state of no edition says so: a Reactor directory is judged with edition null, and --edition refuses it', async () => {
  const dir = join(REACTOR_DIR, 'agent-observatory');
  const r = await verifyPath(dir);
  assert.is(r.kind, 'reactor');
  assert.equal([r.edition.edition, r.edition.source], [null, 'detected']);
  assert.match(r.edition.evidence, /no edition of the state spec/);
  const io = captureIo(dir);
  assert.is(await verifyCommand.run(['.'], io), 0);
  assert.match(
    io.out(),
    /verify: edition none \(detected: a Reactor state directory is no edition of the state spec\)\n/,
  );
  const forced = captureIo(dir);
  assert.is(await verifyCommand.run(['.', '--edition', 'current'], forced), 3);
  assert.match(forced.err(), /no verifier recognises \./);
});

test('--subagent-output on a v0 run reads the v0 reply and says so (detected); --edition current reads a render reply', async () => {
  const reply = join(FIXTURES, '..', 'session', 'seed', 'return-good.txt');
  const run = join(FIXTURES, 'valid', '.prose', 'runs', V0_RUN_ID);
  const io = captureIo(run);
  await verifyCommand.run(['.', '--subagent-output', reply, '--format', 'json'], io);
  const report = JSON.parse(io.out()) as { kind: string; edition: { edition: string; source: string } };
  assert.equal([report.kind, report.edition.edition, report.edition.source], ['subagent-output', 'v0', 'detected']);
  // Forced to the current edition, the same v0 confirmation is a render reply's finding, not a usage error.
  const current = captureIo(run);
  assert.is(await verifyCommand.run(['.', '--subagent-output', reply, '--edition', 'current'], current), 1);
  assert.match(current.out(), /error render\.reply-v0/);
  assert.match(current.out(), /verify: edition current \(given: --edition current\)/);
});

test.run();
