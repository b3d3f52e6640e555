import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fileURLToPath } from 'node:url';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';
import { DEFAULT_DECISIONS } from '../../src/core/decisions.ts';
import { runConcurrent } from '../../src/conformance/run-workers.ts';
import type { ConcurrentStep } from '../../src/conformance/steps/concurrent.ts';

const idleWorker = fileURLToPath(new URL('./fixtures/ready-then-idle-worker.js', import.meta.url));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// Regression: a concurrency step that hit its timeout left its writer processes running after the case ended.
test('when the step gives up (its signal aborted), every worker it started is killed', async () => {
  const abort = new AbortController();
  const pids: number[] = [];
  const step: ConcurrentStep = {
    kind: 'concurrent',
    pos: { file: 'c.yaml', line: 1 },
    workload: 'bindings',
    writers: 3,
    each: 5,
  };
  const verdict = runConcurrent(step, {
    factory: { ...filesystemFactory, spec: 'filesystem' },
    env: { root: '/nonexistent', decisions: DEFAULT_DECISIONS } as never,
    run: 'r',
    seed: 1,
    command: [process.execPath, idleWorker],
    readyTimeoutMs: 20_000,
    signal: abort.signal,
    reopen: () => new Promise(() => undefined),
    close: async () => undefined,
  });
  // The idle workers say ready and never finish: the step would wait forever.
  for (let i = 0; i < 200 && pids.length < 3; i++) {
    await new Promise((r) => setTimeout(r, 50));
    pids.splice(
      0,
      pids.length,
      ...spawnSync('pgrep', ['-P', String(process.pid), '-f', 'ready-then-idle-worker'], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean)
        .map(Number),
    );
  }
  assert.is(pids.length, 3, 'the three workers started');
  abort.abort();
  // Killed before or after they said ready: the step ends either way, naming the kill.
  const outcome = await verdict.then(
    (v) => (v.ok ? 'ok' : v.message),
    (e: Error) => e.message,
  );
  assert.match(outcome, /SIGKILL/);
  // SIGKILLed by the abort (or by the runner once a worker died unready): each is gone once the kernel reaps it.
  for (let i = 0; i < 100 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(pids.filter(alive), [], 'no worker outlives its step');
});

test.run();
