import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fileURLToPath } from 'node:url';
import { verifyCommand } from '../../../src/cli/commands/verify.ts';
import { captureIo } from './capture-io.ts';
import { FIXTURES } from './fixture-copy.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

test('exit codes: 0 valid, 2 usage, 3 nothing recognises the path', async () => {
  const run = async (...argv: string[]) => {
    const io = captureIo(FIXTURES);
    return { code: await verifyCommand.run(argv, io), err: io.err() };
  };
  assert.is((await run('valid', '--home', 'valid-home')).code, 0);
  const unknown = await run('valid', '--frobnicate');
  assert.is(unknown.code, 2);
  assert.match(unknown.err, /--frobnicate/);
  assert.is((await run()).code, 2, 'no PATH');
  assert.is((await run('valid', 'valid-home')).code, 2, 'two PATHs');
  const missing = await run('no-such-dir');
  assert.is(missing.code, 2);
  assert.match(missing.err, /no-such-dir does not exist/);
  assert.is((await run('valid', '--threshold', '-5')).code, 2);
  assert.is((await run('valid', '--format', 'yaml')).code, 2);
  assert.is((await run('valid', '--kind', 'nope')).code, 2);
  const none = await run(`${ROOT}package.json`);
  assert.is(none.code, 3);
  assert.match(none.err, /known kinds: run-dir, prose-dir, state-db/);
});

test('--kind forces a verifier; PROSE_STATE_HOME stands in for --home', async () => {
  const io = captureIo(FIXTURES, { PROSE_STATE_HOME: `${FIXTURES}valid-home` });
  assert.is(await verifyCommand.run(['valid/.prose', '--kind', 'prose-dir', '--format', 'json'], io), 0);
  assert.is(JSON.parse(io.out()).kind, 'prose-dir');
});

test.run();
