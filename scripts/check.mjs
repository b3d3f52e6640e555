#!/usr/bin/env node
// `npm run check`: every static check of the project, side by side on the machine's cores. Each step's output is
// printed whole when it ends (never interleaved), then a closing line naming the failing steps; the exit code is 1 if
// any failed. The steps are listed here and nowhere else, the two long ones first (tsc ~13 s and prettier ~15 s of CPU
// on this machine; the rest ~1-4 s each), so on 2 cores the check takes about the longer of the two, not their sum.
// PROSE_STATE_CHECK_JOBS=1 runs them one at a time.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const node = process.execPath;
export const STEPS = [
  ['types', 'tsc', ['--noEmit']],
  ['format', 'prettier', ['--check', '--log-level', 'warn', '.']],
  ['plugin types', node, ['--import', 'tsx', 'scripts/gen-plugin-types.ts', '--check']],
  ['size', node, ['scripts/check-size.mjs']],
  ['decision citations', node, ['--import', 'tsx', 'scripts/check-decision-citations.ts']],
  ['layers', node, ['scripts/check-layers.mjs']],
  ['decisions doc', node, ['--import', 'tsx', 'scripts/gen-decisions.ts', '--check']],
  ['bench doc', node, ['--import', 'tsx', 'scripts/gen-bench-doc.ts', '--check']],
];

/** Runs one step, its stdout and stderr kept together in the order written. */
function run([name, command, args]) {
  const started = performance.now();
  return new Promise((resolve) => {
    // npm puts node_modules/.bin on PATH for tsc and prettier; a shell is needed on Windows to find their .cmd.
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const done = (code, why) =>
      resolve({ name, code, output: output + (why ?? ''), seconds: (performance.now() - started) / 1000 });
    child.on('error', (e) => done(1, `${name}: could not start ${command}: ${e.message}\n`));
    child.on('close', (code, signal) => done(code ?? 1, signal ? `${name}: killed by ${signal}\n` : undefined));
  });
}

/**
 * Runs `steps` (`[name, command, args]`), `jobs` at a time in the listed order, printing each step's output whole as it
 * ends through `write`; resolves with the failing steps' names (empty when every step passed).
 */
export async function runSteps(steps, jobs, write = (text) => process.stdout.write(text)) {
  const started = performance.now();
  const queue = [...steps];
  const failed = [];
  await Promise.all(
    Array.from({ length: Math.min(jobs, queue.length) }, async () => {
      for (let step = queue.shift(); step; step = queue.shift()) {
        const r = await run(step);
        if (r.code !== 0) failed.push(r.name);
        const verdict = r.code === 0 ? 'ok' : `FAILED (exit ${r.code})`;
        write(`${r.output}${r.output && !r.output.endsWith('\n') ? '\n' : ''}`);
        write(`check: ${r.name} ${verdict} [${r.seconds.toFixed(1)} s]\n`);
      }
    }),
  );
  const wall = ((performance.now() - started) / 1000).toFixed(1);
  if (failed.length)
    write(`check: ${failed.length} of ${steps.length} steps failed in ${wall} s: ${failed.join(', ')}\n`);
  else write(`check: all ${steps.length} steps passed in ${wall} s, ${Math.min(jobs, steps.length)} at once\n`);
  return failed;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const jobs = Math.max(1, Number(process.env.PROSE_STATE_CHECK_JOBS) || availableParallelism());
  process.exitCode = (await runSteps(STEPS, jobs)).length ? 1 : 0;
}
