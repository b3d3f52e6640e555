import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fingerprintCommand } from '../../src/cli/commands/fingerprint.ts';
import { contentAddressOf } from '../../src/canon/index.ts';

const TRUTH = 'sha256:d8e15992a8d850d8120b7879866036272f46fafd568ce4c86ab241c60b3ccc85';

const cli = async (argv: string[], cwd: string) => {
  const out: (string | Uint8Array)[] = [];
  const err: string[] = [];
  const io = {
    stdout: { write: (c: string) => out.push(c) },
    stderr: { write: (c: string) => err.push(c) },
    env: {},
    cwd,
  };
  const code = await fingerprintCommand.run(argv, io);
  return { code, out, stdout: out.filter((c) => typeof c === 'string').join(''), stderr: err.join('') };
};

const withTree = async (fn: (dir: string) => Promise<void>) => {
  const dir = mkdtempSync(join(tmpdir(), 'canon-cli-'));
  try {
    writeFileSync(join(dir, 'truth.json'), '{}');
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

test('prints the address of a directory, relative to cwd', () =>
  withTree(async (dir) => {
    const r = await cli(['.'], dir);
    assert.is(r.code, 0);
    assert.is(r.stdout, `${TRUTH}\n`);
  }));

test('--format json prints path, address, files and bytes', () =>
  withTree(async (dir) => {
    const r = await cli(['truth.json', '--format', 'json'], dir);
    assert.equal(JSON.parse(r.stdout), { path: 'truth.json', address: TRUTH, files: 1, bytes: 29 });
  }));

test('--serialize OUT writes the OPWM1 bytes; "-" sends them to stdout and the address to stderr', () =>
  withTree(async (dir) => {
    const r = await cli(['truth.json', '--serialize=out.opwm'], dir);
    assert.is(r.code, 0);
    assert.is(contentAddressOf(readFileSync(join(dir, 'out.opwm'))), TRUTH);
    const s = await cli(['truth.json', '--serialize', '-'], dir);
    assert.is(s.stderr, `${TRUTH}\n`);
    assert.is(contentAddressOf(Buffer.concat(s.out.map((c) => Buffer.from(c)))), TRUTH);
  }));

test('an unknown option is refused by name with exit 2; a missing path is exit 2', () =>
  withTree(async (dir) => {
    const r = await cli(['.', '--fast'], dir);
    assert.is(r.code, 2);
    assert.ok(r.stderr.includes("'--fast'"));
    assert.is((await cli([], dir)).code, 2);
    assert.is((await cli(['nope'], dir)).code, 2);
    assert.is((await cli(['.', '--format', 'xml'], dir)).code, 2);
  }));

test('--threads on reads on reader threads too, with the same address, and reports them in --format json', () =>
  withTree(async (dir) => {
    const off = await cli(['.', '--threads', 'off', '--format', 'json'], dir);
    const on = await cli(['.', '--threads', 'on', '--format', 'json'], dir);
    assert.is(off.code, 0, off.stderr);
    assert.is(on.code, 0, on.stderr);
    const a = JSON.parse(off.stdout);
    const b = JSON.parse(on.stdout);
    assert.is(a.address, TRUTH);
    assert.is(b.address, TRUTH);
    assert.is(a.parallel, undefined);
    assert.equal([b.parallel.batches, b.parallel.capBytes], [1, 4 << 20]);
    const bad = await cli(['.', '--threads', 'many'], dir);
    assert.is(bad.code, 2);
    assert.match(bad.stderr, '--threads must be auto, on or off');
  }));

test.run();
