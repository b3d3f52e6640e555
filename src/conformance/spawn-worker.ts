import { spawn, type ChildProcess } from 'node:child_process';
import type { BackendEnv } from '../core/backend.ts';
import { ProseError } from '../core/errors.ts';
import { timeoutAfterIo } from '../core/timeout-after-io.ts';
import type { Workload } from './workload.ts';

export interface WorkerHandle {
  child: ChildProcess;
  /** Tells a worker spawned with `start: 'later'` where to start; it opens the backend only then. */
  startAt(index: number): void;
  /** Resolves when the worker has opened the backend and printed `ready`. */
  ready: Promise<void>;
  /** Resolves when the process has exited, with everything it acknowledged. */
  done: Promise<{
    acks: Map<string, unknown>;
    failure?: string;
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
  }>;
}

export interface WorkerOptions {
  /** argv that starts the CLI (`[node, bin/prose-state.js]` from a checkout, `[binary]` from the single binary). */
  command: readonly string[];
  backendSpec: string;
  env: BackendEnv;
  workload: Workload;
  run: string;
  writer: number;
  /** The first item to write, or `later`: the worker loads its engine and waits for the index on stdin (`startAt`). */
  start: number | 'later';
  count?: number;
  /** Hold the writes until stdin closes, so several workers start together. */
  waitForGo?: boolean;
  readyTimeoutMs: number;
  /** A command the worker runs under (a system-call recorder), argv before the worker's own. */
  wrap?: readonly string[];
  /** Variables added to the worker's environment. */
  extraEnv?: Record<string, string>;
  /** Called with each acknowledgement's key as it arrives (a reader must know what was acknowledged before it began). */
  onAck?: (key: string) => void;
  /** Aborted when the step gave up (its timeout): the worker is SIGKILLed instead of outliving the case. */
  signal?: AbortSignal;
}

/** Starts one worker process (src/cli/commands/worker.ts) and follows its acknowledgements line by line. */
export function spawnWorker(o: WorkerOptions): WorkerHandle {
  const child = startProcess(o);
  const acks = new Map<string, unknown>();
  let failure: string | undefined;
  let stderr = '';
  let onReady: () => void = () => undefined;
  let onNotReady: (e: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    onReady = resolve;
    onNotReady = reject;
  });
  // A worker started ahead of its turn is timed from its start index, not from its spawn.
  let timer: NodeJS.Timeout | undefined;
  let isReady = false;
  // One poll phase before the verdict: a "ready" may be waiting in the pipe behind a held loop (timeout-after-io.ts).
  const arm = () =>
    (timer = timeoutAfterIo(() => {
      if (!isReady) onNotReady(notReady(`worker did not open the backend within ${o.readyTimeoutMs} ms`, stderr));
    }, o.readyTimeoutMs));
  if (o.start !== 'later') arm();
  eachLine(child.stdout!, (line) => {
    if (line === 'ready') {
      isReady = true;
      clearTimeout(timer);
      onReady();
      return;
    }
    const tab = line.indexOf('\t');
    if (line.startsWith('ack ') && tab > 0) {
      acks.set(line.slice(4, tab), JSON.parse(line.slice(tab + 1)));
      o.onAck?.(line.slice(4, tab));
    } else if (line.startsWith('fail ')) failure ??= line.slice(5).replace('\t', ': ');
  });
  // A spawn that failed, or was aborted by the step's signal (the kill then closes it), is reported, not thrown.
  child.on('error', (err) => {
    stderr = `${stderr}${err.message}\n`.slice(-4000);
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (c: string) => {
    stderr = (stderr + c).slice(-4000);
  });
  const done = new Promise<Awaited<WorkerHandle['done']>>((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      onNotReady(notReady(`worker exited (${signal ?? code}) before it was ready`, stderr));
      resolve({ acks, failure, code, signal, stderr });
    });
  });
  // A ready promise nobody awaits must not crash the process when the worker dies first.
  ready.catch(() => undefined);
  return {
    child,
    ready,
    done,
    startAt: (index) => {
      arm();
      child.stdin!.write(`${index}\n`);
    },
  };
}

/** The worker process: the CLI's `worker` command, under `wrap` when given, told its backend and storage by env. */
function startProcess(o: WorkerOptions): ChildProcess {
  const args = [
    ...o.command.slice(1),
    'worker',
    '--workload',
    o.workload,
    '--run',
    o.run,
    '--writer',
    String(o.writer),
    ...(o.start === 'later' ? ['--start-from-stdin'] : ['--start', String(o.start)]),
  ];
  if (o.count !== undefined) args.push('--count', String(o.count));
  if (o.waitForGo) args.push('--wait-go');
  const argv = [...(o.wrap ?? []), o.command[0]!, ...args];
  return spawn(argv[0]!, argv.slice(1), {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...o.extraEnv,
      PROSE_STATE_WORKER_BACKEND: o.backendSpec,
      PROSE_STATE_WORKER_ENV: JSON.stringify(o.env),
    },
    ...(o.signal ? { signal: o.signal, killSignal: 'SIGKILL' as const } : {}),
  });
}

/** Calls `fn` with each whole line the stream prints. */
function eachLine(stream: NodeJS.ReadableStream, fn: (line: string) => void): void {
  let buffer = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      fn(line);
    }
  });
}

function notReady(message: string, stderr: string): ProseError {
  return new ProseError('E_BACKEND', message, { hint: stderr.slice(-500) });
}
