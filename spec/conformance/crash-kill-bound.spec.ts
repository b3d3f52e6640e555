import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fileURLToPath } from 'node:url';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { runCrash, type WorkerContext } from '../../src/conformance/run-workers.ts';
import type { CrashStep } from '../../src/conformance/steps/crash.ts';

const idleWorker = fileURLToPath(new URL('./fixtures/ready-then-idle-worker.js', import.meta.url));

/** A crash step of `kills` kills whose storage never reopens; resolves to the error it ended with. */
function crashUntilError(
  kills: number,
  ctx: Pick<WorkerContext, 'command' | 'readyTimeoutMs'>,
): Promise<Error | undefined> {
  const step: CrashStep = {
    kind: 'crash',
    pos: { file: 'crash.yaml', line: 1 },
    workload: 'bindings',
    kills,
    maxDelayMs: 1,
    inProcess: false,
  };
  return runCrash(step, {
    factory: { ...filesystemFactory, spec: 'filesystem' },
    env: { root: '/nonexistent', decisions: DEFAULT_DECISIONS } as never,
    run: 'r',
    seed: 1,
    reopen: () => new Promise(() => undefined),
    close: async () => undefined,
    ...ctx,
  }).then(
    () => undefined,
    (e: Error) => e,
  );
}

// Regression: a module plugin whose lock was wedged by a kill held a CI run for 25+ minutes, because only the whole
// crash step was bounded (kills x step timeout). Each kill's reopen and check now has a bound of its own.
test('a reopen that never returns after a kill errors that kill, not after the whole step budget', async () => {
  const err = await crashUntilError(1000, { command: [process.execPath, idleWorker], readyTimeoutMs: 3000 });
  assert.ok(err, 'the crash step must error');
  // The first wedged kill ends the step, naming it: not kill 1000, and not after 1000 x 3000 ms.
  assert.match(err!.message, /timed out after 6000 ms: kill 1 of 1000: reopening the storage/);
});

test('a worker that never says ready is killed, so it cannot hold the run open', async () => {
  const err = await crashUntilError(3, {
    command: [process.execPath, '-e', 'setInterval(() => undefined, 1000)'],
    readyTimeoutMs: 200,
  });
  assert.ok(err);
  assert.match(err!.message, /did not open the backend within 200 ms/);
  // uvu would not exit while the silent worker's pipes stayed open; reaching the end of this file is the check.
});

test.run();
