import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.ts';
import { captureIo } from '../helpers/temp-suite.ts';

// selftest --jobs N judges N mutants at once, each in a lane (a child process of the CLI: src/selftest/mutant-lanes.ts).
// The verdicts, their kills and their order must be those of the sequential run.
const SELF = [process.execPath, fileURLToPath(new URL('../../bin/prose-state.js', import.meta.url))];
// Three the bindings area kills, one it cannot (a segment bug), one of the sqlite backend (held to sqlite's results).
const ARGS = ['selftest', '--area', 'bindings', '--format', 'json'].concat(
  ['const-rebind-allowed', 'crlf-normalized', 'segment-from-zero', 'kind-lost', 'sqlite-source-dropped'].flatMap(
    (m) => ['--mutant', m],
  ),
);

async function selftest(jobs: string) {
  const c = captureIo();
  const code = await main([...ARGS, '--jobs', jobs], { ...c.io, self: SELF });
  return { code, result: JSON.parse(c.out()), err: c.err() };
}

test('--jobs 3 tells the same verdicts, kills and order as --jobs 1', async () => {
  const one = await selftest('1');
  const three = await selftest('3');
  assert.is(one.code, 1, one.err);
  assert.is(three.code, 1, three.err);
  // The evidence quotes what the case saw, run ids with the time in them among it: the rest must be equal.
  const verdicts = (r: { verdicts: { mutant: string; killedBy: string[] }[] }) =>
    r.verdicts.map((v) => [v.mutant, v.killedBy]);
  assert.equal(verdicts(three.result), verdicts(one.result));
  assert.equal(verdicts(one.result), [
    ['const-rebind-allowed', ['bindings/const-cannot-be-rebound']],
    ['crlf-normalized', ['bindings/value-with-crlf']],
    ['kind-lost', ['bindings/every-kind-round-trips']],
    ['segment-from-zero', []],
    ['sqlite-source-dropped', []],
  ]);
  assert.equal(three.result.control.killedBy, []);
});

test('--jobs takes a whole number above 0', async () => {
  const c = captureIo();
  const code = await main(['selftest', '--jobs', '0'], { ...c.io, self: SELF });
  assert.is(code, 2);
  assert.match(c.err(), /--jobs takes a whole number above 0/);
});

test.run();
