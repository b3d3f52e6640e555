import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { BackendEnv } from '../../core/backend.ts';
import { ProseError } from '../../core/errors.ts';
import { spawnWorker } from '../spawn-worker.ts';
import type { Workload } from '../workload.ts';
import { TRACED_CALLS } from './resolve-ops.ts';
import { parseStraceLog, type Syscall } from './strace-log.ts';

let probed: { strace: string } | { skip: string } | undefined;

/**
 * Whether strace can trace a child here: missing, or refused by the kernel (ptrace denied in a container), is a
 * skip with the reason, never a pass. Asked once per process.
 */
export function findStrace(): { strace: string } | { skip: string } {
  if (probed) return probed;
  const r = spawnSync('strace', ['-f', '-qq', '-o', '/dev/null', 'true'], { encoding: 'utf8', timeout: 30_000 });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT')
    probed = { skip: "strace is not on PATH (Debian's strace package; .ci/run installs it)" };
  else if (r.error || r.status !== 0)
    probed = {
      skip: `strace cannot trace a process here (${(r.stderr || String(r.error ?? `exit ${r.status}`)).trim().split('\n')[0]}): ptrace is probably denied`,
    };
  else probed = { strace: 'strace' };
  return probed;
}

export interface RecordOptions {
  strace: string;
  command: readonly string[];
  backendSpec: string;
  env: BackendEnv;
  workload: Workload;
  run: string;
  start: number;
  count: number;
  readyTimeoutMs: number;
  /** Where strace writes its log (outside the storage). */
  logFile: string;
  /** Aborted when the step gave up: strace and the writer are killed rather than outliving the case. */
  signal?: AbortSignal;
}

/**
 * Runs one writer to the end of its `count` items under `strace -f`, each byte written printed in hex, and returns
 * the calls it (and every process it started: an exec plugin) made. libuv is kept off io_uring, whose file
 * operations no system-call recorder sees.
 */
export async function recordWorker(o: RecordOptions): Promise<Syscall[]> {
  const w = spawnWorker({
    command: o.command,
    backendSpec: o.backendSpec,
    env: o.env,
    workload: o.workload,
    run: o.run,
    writer: 0,
    start: o.start,
    count: o.count,
    readyTimeoutMs: o.readyTimeoutMs,
    // Told to go by the end of its stdin, the worker then exits once its count is written.
    waitForGo: true,
    ...(o.signal ? { signal: o.signal } : {}),
    wrap: [
      o.strace,
      '-f',
      '-qq',
      '-tt',
      '-xx',
      '-s',
      String(64 * 1024 * 1024),
      '-e',
      'signal=none',
      '-e',
      `trace=${TRACED_CALLS.map((c) => `?${c}`).join(',')}`,
      '-o',
      o.logFile,
    ],
    extraEnv: { UV_USE_IO_URING: '0' },
  });
  await w.ready.catch((err: unknown) => {
    w.child.kill('SIGKILL');
    throw err;
  });
  w.child.stdin!.end();
  // A writer that never finishes is killed (strace and all), so no traced process outlives the case.
  const stop = setTimeout(() => w.child.kill('SIGKILL'), 5 * o.readyTimeoutMs);
  const done = await w.done.finally(() => clearTimeout(stop));
  if (done.failure) throw new ProseError('E_BACKEND', `the recorded writer was refused: ${done.failure}`);
  if (done.code !== 0)
    throw new ProseError('E_BACKEND', `the recorded writer exited ${done.signal ?? done.code}`, {
      hint: done.stderr.slice(-500),
    });
  if (done.acks.size !== o.count)
    throw new ProseError('E_BACKEND', `the recorded writer acknowledged ${done.acks.size} of ${o.count} writes`);
  return parseStraceLog(readFileSync(o.logFile, 'latin1'));
}
