// The worker processes of the spec runner: each a long-lived `node --import tsx spec-worker.mjs` that takes one spec
// file at a time over IPC and answers with the file's output, up to the marker line it writes after each file.
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { MARKER } from './plan.mjs';

const ENTRY = join(dirname(fileURLToPath(import.meta.url)), 'spec-worker.mjs');

/**
 * Starts one worker. `run(file)` resolves with `{ output, seconds, cpu, broke }` when the file is done (`cpu`: seconds
 * of CPU, the file's child processes included, where the worker can tell); `broke` when the worker died during it (its output so far is kept, and the caller starts a new worker for the next file).
 */
export function startWorker() {
  // uvu's CLI sets FORCE_COLOR for the whole run, so every spec (and what it spawns) ran with it: so do the workers.
  const child = fork(ENTRY, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env, FORCE_COLOR: '1' },
  });
  let out = '';
  let err = '';
  let current = null;
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    out += chunk;
    const at = out.indexOf(MARKER);
    const end = at < 0 ? -1 : out.indexOf('\n', at);
    if (end < 0 || !current) return;
    const { seconds, cpu } = JSON.parse(out.slice(at + MARKER.length, end));
    const done = { output: out.slice(0, at) + err, seconds, cpu, broke: false };
    out = out.slice(end + 1);
    err = '';
    finish(done);
  });
  // What a spec's child processes write to an inherited stderr: kept with the file that is running.
  child.stderr.setEncoding('utf8').on('data', (chunk) => (err += chunk));
  child.on('close', (code, signal) => {
    if (!current) return;
    const seconds = (performance.now() - current.started) / 1000;
    const why = `\nthe spec worker exited (${signal ?? `code ${code}`}) while this file ran\n`;
    finish({ output: out + err + why, seconds, broke: true });
  });
  function finish(done) {
    const { resolve } = current;
    current = null;
    resolve(done);
  }
  return {
    run: (file) =>
      new Promise((resolve) => {
        current = { resolve, started: performance.now() };
        child.send({ file });
      }),
    stop: () => child.connected && child.disconnect(),
  };
}

/**
 * Runs the plan: the shared files on `jobs` workers, each taking the first file of the longest-first queue that no
 * running file's `apart` set holds, when it frees (it waits when only such files are left); then the files that must
 * run alone, one at a time on one worker with every other stopped. `onDone(file, result)` is called as each file
 * finishes, in finishing order.
 */
export async function runPlan(plan, jobs, onDone) {
  const queue = [...plan.shared];
  const busySets = new Set();
  let freed = [];
  const nextFile = async () => {
    while (queue.length) {
      const at = queue.findIndex((f) => plan.setOf(f) === undefined || !busySets.has(plan.setOf(f)));
      // Taken and its set marked busy in one step: the other slots look in between awaits.
      if (at >= 0) {
        if (plan.setOf(queue[at]) !== undefined) busySets.add(plan.setOf(queue[at]));
        return queue.splice(at, 1)[0];
      }
      await new Promise((resolve) => freed.push(resolve));
    }
    return undefined;
  };
  const slot = async () => {
    let worker;
    for (let file = await nextFile(); file !== undefined; file = await nextFile()) {
      worker ??= startWorker();
      const result = await worker.run(file);
      busySets.delete(plan.setOf(file));
      const waiting = freed;
      freed = [];
      for (const wake of waiting) wake();
      onDone(file, result);
      if (result.broke) worker = undefined;
    }
    worker?.stop();
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, queue.length)) }, slot));
  queue.push(...plan.alone);
  if (queue.length) await slot();
}
