import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as assert from 'uvu/assert';
import { test } from 'uvu';
import { postgresUrlFactory } from '../../../src/backends/postgres/index.ts';
import { realServerTest } from './engines.ts';
import { sub, tempEnv, VM } from './helpers.ts';

const run = promisify(execFile);
const WRITERS = 8;
const EACH = 200;
const SEGMENTS = 10;
const child = fileURLToPath(new URL('./fixtures/bind-writer.ts', import.meta.url));

// 8 real processes write 200 bindings each to one run through the server, and 10 segments each of one agent.
realServerTest(
  '8 processes x 200 bindings to one run: all 1,600 present; runs stay apart [real server]',
  async (url) => {
    const f = postgresUrlFactory(url, 'test');
    const env = tempEnv();
    try {
      const b = await f.open(env);
      const { run: runA } = await b.call('createRun', { program: 'parallel a' }, VM);
      const { run: runB } = await b.call('createRun', { program: 'parallel b' }, VM);
      // Same names in the other run, with other values: they must never leak into runA.
      await b.call('bind', { run: runB, name: 'w0_000', kind: 'let', value: 'from b' }, sub('w0_000'));
      const started = Date.now();
      // The URL travels base64-encoded in argv so it never shows in logs of the spawn; children print no URL.
      const arg = Buffer.from(url).toString('base64');
      const outs = await Promise.all(
        Array.from({ length: WRITERS }, (_, w) =>
          run(
            process.execPath,
            [
              '--import',
              'tsx',
              child,
              arg,
              env.storageKey,
              env.projectDir,
              runA,
              String(w),
              String(EACH),
              String(SEGMENTS),
            ],
            { timeout: 120_000 },
          ),
        ),
      );
      console.log(
        `many writers: ${WRITERS * EACH} bindings and ${WRITERS * SEGMENTS} segments from ${WRITERS} processes in ${Date.now() - started} ms`,
      );
      const listed = (await b.call('listBindings', { run: runA }, VM)).bindings;
      assert.is(listed.length, WRITERS * EACH, 'every binding of every writer is there');
      assert.is(new Set(listed.map((x) => x.name)).size, WRITERS * EACH);
      assert.is((await b.call('resolve', { run: runA, name: 'w7_199' }, VM)).value, `${runA}:w7_199`);
      assert.is(
        (await b.call('resolve', { run: runA, name: 'w0_000' }, VM)).value,
        `${runA}:w0_000`,
        'run A never sees run B',
      );
      const inB = (await b.call('listBindings', { run: runB }, VM)).bindings;
      assert.equal(
        inB.map((x) => x.name),
        ['w0_000'],
        'run B holds only its own binding',
      );
      assert.is((await b.call('resolve', { run: runB, name: 'w0_000' }, VM)).value, 'from b');
      const numbers = outs
        .flatMap((o) => (JSON.parse(o.stdout) as { numbers: number[] }).numbers)
        .sort((x, y) => x - y);
      assert.equal(
        numbers,
        Array.from({ length: WRITERS * SEGMENTS }, (_, i) => i + 1),
        'segment numbers 1..80, none shared',
      );
      await b.close();
      await f.dispose!(env);
    } finally {
      env.cleanup();
    }
  },
);

test.run();
