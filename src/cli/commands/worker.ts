import * as nodeModule from 'node:module';
import { resolveBackends } from '../backend-kinds.ts';
import type { Backend, BackendEnv, BackendFactory } from '../../core/backend.ts';
import { EDITION_NAMES, isEdition } from '../../core/editions.ts';
import { ProseError, toProseError } from '../../core/errors.ts';
import { WORKLOADS, workItem, type Workload } from '../../conformance/workload.ts';
import { parseOptions } from '../args.ts';
import { EXIT, type CliIo, type Command } from '../io.ts';

/**
 * The child process of the crash and concurrency areas: opens a backend on a case's storage and runs a write
 * workload, printing `ack KEY<TAB>RESULT` after each call returns. The backend string and its environment come
 * through PROSE_STATE_WORKER_BACKEND and PROSE_STATE_WORKER_ENV, never argv, since a URL may hold a password.
 */
export const workerCommand: Command = {
  help: `Usage: prose-state worker --workload ${WORKLOADS.join('|')} --run RUN [--writer N] [--start I | --start-from-stdin] [--count C]

Used by the runner: reads the backend from PROSE_STATE_WORKER_BACKEND and its storage from PROSE_STATE_WORKER_ENV
(JSON: projectDir, homeDir, decisions, storageKey, edition). Prints "ready" once the backend answered a read of RUN, then
"ack KEY<TAB>RESULT" per write. With --start-from-stdin it loads its engine first and takes the start index from
the first line of stdin (a worker started ahead of its turn).`,
  async run(argv, io) {
    const options = parseWorkerOptions(argv, io.env);
    const [factory] = await resolveBackends(options.backend, { env: io.env, cwd: io.cwd });
    // A crash worker started ahead of its kill loads its engine now, then waits for the index to start at (known
    // once the previous kill's acknowledgements are counted); it touches the storage only after that line.
    const early = options.startFromStdin ? firstLine() : undefined;
    try {
      return await work(factory!, options, io, early);
    } finally {
      early?.release(); // a worker that fails before its start must still exit, not wait on stdin
    }
  },
};

/** A worker's options: its argv, and the backend and storage its environment names. */
export interface WorkerOptions {
  workload: Workload;
  run: string;
  writer: number;
  /** --start as given (a worker started ahead of its turn reads it from stdin instead). */
  start?: string;
  count: number;
  waitGo: boolean;
  startFromStdin: boolean;
  backend: string;
  env: BackendEnv;
}

export function parseWorkerOptions(argv: string[], env: Record<string, string | undefined>): WorkerOptions {
  const { values } = parseOptions(
    argv,
    {
      workload: { type: 'string' },
      run: { type: 'string' },
      writer: { type: 'string' },
      start: { type: 'string' },
      count: { type: 'string' },
      'wait-go': { type: 'boolean' },
      'start-from-stdin': { type: 'boolean' },
    },
    env,
  );
  const workload = values.workload as Workload;
  if (!WORKLOADS.includes(workload))
    throw new ProseError('E_USAGE', `--workload must be one of ${WORKLOADS.join(', ')}`);
  if (typeof values.run !== 'string') throw new ProseError('E_USAGE', 'worker needs --run');
  const spec = env.PROSE_STATE_WORKER_BACKEND;
  const envJson = env.PROSE_STATE_WORKER_ENV;
  if (!spec || !envJson)
    throw new ProseError('E_USAGE', 'worker needs PROSE_STATE_WORKER_BACKEND and PROSE_STATE_WORKER_ENV');
  return {
    workload,
    run: values.run,
    writer: values.writer === undefined ? 0 : Number(values.writer),
    start: values.start as string | undefined,
    count: values.count === undefined ? Number.MAX_SAFE_INTEGER : Number(values.count),
    waitGo: !!values['wait-go'],
    startFromStdin: !!values['start-from-stdin'],
    backend: spec,
    env: workerEnv(envJson),
  };
}

/** The storage the runner hands a worker; its edition (the runner's case judges one) must be one this CLI knows. */
function workerEnv(json: string): BackendEnv {
  const env = JSON.parse(json) as BackendEnv;
  if (env.edition !== undefined && !isEdition(env.edition))
    throw new ProseError('E_USAGE', `PROSE_STATE_WORKER_ENV: unknown edition ${JSON.stringify(env.edition)}`, {
      hint: `editions: ${EDITION_NAMES.join(', ')}`,
    });
  return env;
}

/** Opens the backend once the start is known, says ready, then writes until done, failed, killed or orphaned. */
async function work(
  factory: BackendFactory,
  o: WorkerOptions,
  io: CliIo,
  early: ReturnType<typeof firstLine> | undefined,
): Promise<number> {
  if (early) await factory.prepare?.();
  const first = early ? await early.line : undefined;
  if (early && first === undefined) return EXIT.ok; // the runner no longer needs us
  const start = first !== undefined ? Number(first) : o.start === undefined ? 0 : Number(o.start);
  if (!Number.isSafeInteger(start) || start < 0) throw new ProseError('E_USAGE', 'worker: the start is a whole number');
  const backend = await factory.open(o.env);
  // Ready means the backend answers: engines that load lazily (WASM SQLite) must not spend the kill window loading.
  await backend.call('getRun', { run: o.run }, { role: 'vm' });
  io.stdout.write('ready\n');
  (nodeModule as { flushCompileCache?: () => void }).flushCompileCache?.();
  // Several writers start together: the runner closes our stdin once every one of them is ready.
  if (o.waitGo && io.stdin) await io.stdin();
  // A crash writer runs until it is killed; if the runner itself dies, its end of our stdin closes: stop then.
  let orphaned = false;
  const stdinClosed = early ? early.closed : !o.waitGo && io.stdin ? io.stdin() : undefined;
  void stdinClosed?.then(() => {
    orphaned = true;
  });
  try {
    for (let i = start; i < start + o.count && !orphaned; i++) {
      const item = workItem(
        o.workload,
        o.run,
        o.writer,
        i,
        factory.capabilities,
        o.env.decisions.attachmentThresholdBytes,
      );
      if (!(await writeOne(backend, item, io))) return EXIT.failed;
    }
  } finally {
    await backend.close();
  }
  return EXIT.ok;
}

/** One write: `ack KEY<TAB>RESULT` when it returns, `fail KEY<TAB>ERROR` (and false) when it throws. */
async function writeOne(backend: Backend, item: ReturnType<typeof workItem>, io: CliIo): Promise<boolean> {
  let result: unknown;
  try {
    result = await backend.call(item.op, item.args as never, item.actor);
  } catch (err) {
    const e = toProseError(err);
    io.stdout.write(`fail ${item.key}\t${JSON.stringify({ code: e.code, message: e.message })}\n`);
    return false;
  }
  io.stdout.write(`ack ${item.key}\t${JSON.stringify(result)}\n`);
  return true;
}

/** The first line on stdin (undefined when stdin ends first) and stdin's end; only a worker process reads it so. */
function firstLine(): { line: Promise<string | undefined>; closed: Promise<void>; release(): void } {
  let text = '';
  let onLine: (l: string | undefined) => void = () => undefined;
  const line = new Promise<string | undefined>((resolve) => (onLine = resolve));
  const closed = new Promise<void>((resolve) => {
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (c: string) => {
      text += c;
      const nl = text.indexOf('\n');
      if (nl !== -1) onLine(text.slice(0, nl));
    });
    process.stdin.on('end', () => {
      onLine(undefined);
      resolve();
    });
  });
  return { line, closed, release: () => process.stdin.destroy() };
}
