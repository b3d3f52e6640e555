import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveDecisions } from '../../src/core/decisions.ts';
import { spawnWorker } from '../../src/conformance/spawn-worker.ts';

const markWorker = fileURLToPath(new URL('./fixtures/ready-then-mark-worker.js', import.meta.url));

// A held loop (a busy machine, a case computing beside this one) must not turn a "ready" that is already in the pipe
// into a ready timeout: the timer's turn of the loop runs before that turn's I/O.
test('a worker ready before its timeout is ready, even when the loop was held past the timeout', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'prose-spawn-ready-'));
  try {
    const mark = join(dir, 'ready-written');
    const w = spawnWorker({
      command: [process.execPath, markWorker],
      backendSpec: 'filesystem',
      env: { projectDir: dir, homeDir: dir, decisions: resolveDecisions({}), storageKey: dir },
      workload: 'bindings',
      run: 'r',
      writer: 0,
      start: 0,
      readyTimeoutMs: 20,
      extraEnv: { PROSE_STATE_SPEC_MARK: mark },
    });
    const started = Date.now();
    // Hold the loop until "ready" is in the pipe and the ready timeout is well past: the timer and the line are
    // then both due in the same turn. The wait is for an event, not a duration the spec asserts.
    while (!existsSync(mark) || Date.now() - started < 200) {
      /* held */
    }
    const verdict = await w.ready.then(
      () => 'ready',
      (e: Error) => e.message,
    );
    w.child.stdin!.end();
    await w.done;
    assert.is(verdict, 'ready');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
