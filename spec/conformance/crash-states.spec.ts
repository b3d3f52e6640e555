import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { buildCrashStates } from '../../src/conformance/crash-states/build-states.ts';
import { FileModel } from '../../src/conformance/crash-states/file-model.ts';
import { findStrace } from '../../src/conformance/crash-states/record.ts';
import { resolveOps } from '../../src/conformance/crash-states/resolve-ops.ts';
import { parseStraceLog } from '../../src/conformance/crash-states/strace-log.ts';
import { builtinSuite } from '../helpers/builtin-suite.ts';
import { runSuite } from '../../src/conformance/run-suite.ts';
import { seededRandom } from '../../src/conformance/workload.ts';
import type { BackendFactory } from '../../src/core/backend.ts';
import { MUTANTS } from '../../src/selftest/mutants/index.ts';

/** A string as strace -xx prints it. */
const x = (s: string) => `"${[...Buffer.from(s)].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')}"`;

function withRoot(fn: (root: string) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'prose-state-cs-'));
  try {
    mkdirSync(join(dir, 'store'));
    fn(join(dir, 'store'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The calls of write-then-rename (safe) or of a write in place, as strace logs them; pid 7, one ack. */
function logOf(root: string, safe: boolean, ackBeforeDirSync = false): string {
  const ack = `7 10:00:00.000010 write(1, ${x('ack binding a\t{"ok":true}\n')}, 26) = 26`;
  const lines = safe
    ? [
        `7 10:00:00.000001 openat(AT_FDCWD, ${x(`${root}/.tmp`)}, O_WRONLY|O_CREAT|O_EXCL, 0644) = 3`,
        `7 10:00:00.000002 write(3, ${x('hello world')}, 11) = 11`,
        `7 10:00:00.000003 fsync(3) = 0`,
        `7 10:00:00.000004 close(3) = 0`,
        `7 10:00:00.000005 rename(${x(`${root}/.tmp`)}, ${x(`${root}/a`)}) = 0`,
        ...(ackBeforeDirSync ? [ack] : []),
        `7 10:00:00.000006 openat(AT_FDCWD, ${x(root)}, O_RDONLY|O_DIRECTORY) = 3`,
        `7 10:00:00.000007 fsync(3 <unfinished ...>`,
        `8 10:00:00.000008 write(5, ${x('elsewhere')}, 9) = 9`,
        `7 10:00:00.000009 <... fsync resumed>) = 0`,
      ]
    : [
        `7 10:00:00.000001 openat(AT_FDCWD, ${x(`${root}/a`)}, O_WRONLY|O_CREAT|O_TRUNC, 0644) = 3`,
        `7 10:00:00.000002 write(3, ${x('hello world')}, 11) = 11`,
        `7 10:00:00.000004 close(3) = 0`,
      ];
  return [...lines, ...(ackBeforeDirSync ? [] : [ack]), ''].join('\n');
}

test('strace lines are joined across <unfinished ...> and their arguments split at the top level', () => {
  const calls = parseStraceLog(
    [
      `7 10:00:00.1 pwrite64(3, ${x('a, b')}, 4, 8 <unfinished ...>`,
      `9 10:00:00.2 close(4) = 0`,
      `7 10:00:00.3 <... pwrite64 resumed>) = 4`,
      `7 10:00:00.4 openat(AT_FDCWD, ${x('/nope')}, O_RDONLY) = -1 ENOENT (No such file or directory)`,
      '7 10:00:00.5 +++ exited with 0 +++',
    ].join('\n'),
  );
  assert.equal(
    calls.map((c) => [c.tid, c.name, c.args.length, c.ret]),
    [
      [9, 'close', 1, 0],
      [7, 'pwrite64', 4, 4],
      [7, 'openat', 3, -1],
    ],
  );
  assert.is(calls[1]!.args[3], '8');
});

test('write-then-rename with fsyncs: the replay rebuilds the file, the ack is a marker, other fds are left out', () => {
  withRoot((root) => {
    const model = FileModel.load([root]);
    const initial = model.clone();
    const log = resolveOps(parseStraceLog(logOf(root, true)), model, '/');
    assert.equal(
      log.map((l) => l.op.t),
      ['create', 'write', 'sync', 'rename', 'sync', 'ack'],
    );
    const a = model.names.get(`${root}/a`);
    assert.ok(a?.kind === 'file' && model.inodes.get(a.ino)!.toString() === 'hello world');
    const { states } = buildCrashStates(initial, log, 100, seededRandom(1));
    // Every state holds a whole file or none under the name `a`, and the one owing the ack holds it.
    for (const s of states) {
      const e = s.model.names.get(`${root}/a`);
      if (e?.kind === 'file') assert.is(s.model.inodes.get(e.ino)!.toString(), 'hello world');
      if (s.acks.has('binding a')) assert.ok(e, `state ${s.kind} at ${s.upTo} owes the ack`);
    }
  });
});

test('an ack printed before the directory fsync owes a rename a power cut may still drop', () => {
  withRoot((root) => {
    const model = FileModel.load([root]);
    const initial = model.clone();
    const log = resolveOps(parseStraceLog(logOf(root, true, true)), model, '/');
    const { states } = buildCrashStates(initial, log, 100, seededRandom(1));
    assert.ok(
      states.some((s) => s.kind === 'omit' && s.acks.has('binding a') && !s.model.names.has(`${root}/a`)),
      'the rename left out while the ack is owed',
    );
  });
});

test('a write in place leaves states with the name present and its content empty or torn', () => {
  withRoot((root) => {
    const model = FileModel.load([root]);
    const initial = model.clone();
    const log = resolveOps(parseStraceLog(logOf(root, false)), model, '/');
    const { states } = buildCrashStates(initial, log, 100, seededRandom(1));
    const contents = states.map((s) => {
      const e = s.model.names.get(`${root}/a`);
      return e?.kind === 'file' ? s.model.inodes.get(e.ino)!.toString() : null;
    });
    assert.ok(contents.includes(''), 'the state between the truncating open and the write');
    assert.not.ok(contents.includes('hello'), 'a write within one block never tears');
    // Nothing fsyncs: the write may be lost while the ack was printed.
    assert.ok(states.some((s) => s.acks.has('binding a') && s.kind === 'omit'));
  });
});

test('a write across block boundaries tears at one of them', () => {
  withRoot((root) => {
    const model = FileModel.load([root]);
    const initial = model.clone();
    const big = 'z'.repeat(10_000);
    const text = [
      `7 10:00:00.000001 openat(AT_FDCWD, ${x(`${root}/a`)}, O_WRONLY|O_CREAT|O_TRUNC, 0644) = 3`,
      `7 10:00:00.000002 write(3, ${x(big)}, 10000) = 10000`,
      '',
    ].join('\n');
    const log = resolveOps(parseStraceLog(text), model, '/');
    const { states } = buildCrashStates(initial, log, 100, seededRandom(1));
    const torn = states.find((s) => s.kind === 'torn')!;
    const e = torn.model.names.get(`${root}/a`);
    assert.ok(e?.kind === 'file');
    if (e?.kind === 'file') assert.is(torn.model.inodes.get(e.ino)!.length, 4096);
  });
});

test('the budget caps the states and the seed fixes the sample', () => {
  withRoot((root) => {
    const model = FileModel.load([root]);
    const initial = model.clone();
    const log = resolveOps(parseStraceLog(logOf(root, false)), model, '/');
    const a = buildCrashStates(initial, log, 2, seededRandom(5));
    const b = buildCrashStates(initial, log, 2, seededRandom(5));
    assert.is(a.states.length, 2);
    assert.ok(a.candidates > 2);
    assert.equal(
      a.states.map((s) => [s.kind, s.upTo]),
      b.states.map((s) => [s.kind, s.upTo]),
    );
  });
});

const suite = builtinSuite();
const silent = { header() {}, result() {}, footer() {} };
const worker = [process.execPath, fileURLToPath(new URL('../../bin/prose-state.js', import.meta.url))];
const run = (f: BackendFactory, id: string) =>
  runSuite({
    suite,
    factories: [f],
    decisions: DEFAULT_DECISIONS,
    filter: { areas: [], ids: [id] },
    listener: silent,
    workerCommand: worker,
    seed: 11,
  }).then((r) => r[0]!.outcome);

const tracer = findStrace();
if ('skip' in tracer) {
  console.log(`crash-states specs with a recorded writer skipped: ${tracer.skip}`);
} else {
  test('the reference filesystem backend passes every crash state of the bindings case, counted', async () => {
    const o = await run({ ...filesystemFactory, spec: 'filesystem' }, 'crash-states/bindings-every-crash-point');
    assert.is(o.status, 'passed', JSON.stringify(o));
    if (o.status === 'passed') assert.ok((o.metrics?.['crash states checked'] ?? 0) > 10);
  });

  test('a binding written in place is caught between its open and its write', async () => {
    const m = MUTANTS.find((x) => x.name === 'binding-written-in-place')!;
    const o = await run(m.factory, 'crash-states/bindings-every-crash-point');
    assert.is(o.status, 'failed');
    if (o.status === 'failed') assert.match(o.message, /crash after operation \d+ of \d+.*w0_4\d/);
  });
}

test.run();
