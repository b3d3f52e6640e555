// One long-lived spec worker (started by scripts/specs/run-specs.mjs under `node --import tsx`): it runs the spec
// files its parent sends over IPC one at a time, each as uvu's own CLI runs a file (its tests queued on import, then
// run in order by uvu's exec), so the process start and the loading of shared modules are paid once per worker.
// After each file it writes a marker line to stdout; everything before it is that file's output.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { MARKER } from './plan.mjs';

// uvu reads this when it is first imported: tests queue on test.run() instead of starting on a timer.
globalThis.UVU_DEFER = 1;
const { exec } = await import('uvu');

// A file's in-process writes to stderr go into stdout, so its output stays in the order it was written.
process.stderr.write = process.stdout.write.bind(process.stdout);

/**
 * Seconds of CPU this worker and its finished children have used, or undefined where there is no /proc: a spec's
 * cost is mostly the processes it starts (binaries, emulators, writers), which the worker's own usage does not show.
 * Fields 14-17 of /proc/self/stat: utime, stime, cutime, cstime, in clock ticks (USER_HZ, 100 on Linux).
 */
function cpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100;
  } catch {
    return undefined;
  }
}

async function runFile(file) {
  const started = performance.now();
  const cpuBefore = cpuSeconds();
  globalThis.UVU_QUEUE.length = 0;
  globalThis.UVU_INDEX = 0;
  globalThis.UVU_QUEUE.push([file]);
  let loaded = true;
  try {
    await import(pathToFileURL(resolve(file)).href);
  } catch (err) {
    loaded = false;
    process.stdout.write(`${file}: the spec file failed to load\n${err?.stack ?? err}\n`);
  }
  if (loaded) await exec();
  // uvu's exec sets the exit code for a whole run; here it is one file's, and the parent counts from the output.
  process.exitCode = 0;
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = cpuSeconds();
  const cpu = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  process.stdout.write(`\n${MARKER}${JSON.stringify({ file, seconds, cpu })}\n`);
}

let chain = Promise.resolve();
process.on('message', ({ file }) => {
  chain = chain.then(() => runFile(file));
});
process.on('disconnect', () => chain.then(() => process.exit(0)));
