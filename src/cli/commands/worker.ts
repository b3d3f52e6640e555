import * as nodeModule from 'node:module';
import { resolveBackends } from '../backend-kinds.ts';
import type { BackendEnv } from '../../core/backend.ts';
import { ProseError, toProseError } from '../../core/errors.ts';
import { WORKLOADS, workItem, type Workload } from '../../conformance/workload.ts';
import { parseOptions } from '../args.ts';
import type { Command } from '../io.ts';

/**
 * The child process of the crash and concurrency areas: opens a backend on a case's storage and runs a write
 * workload, printing `ack KEY<TAB>RESULT` after each call returns. The backend string and its environment come
 * through PROSE_STATE_WORKER_BACKEND and PROSE_STATE_WORKER_ENV, never argv, since a URL may hold a password.
 */
export const workerCommand: Command = {
  help: `Usage: prose-state worker --workload ${WORKLOADS.join('|')} --run RUN [--writer N] [--start I | --start-from-stdin] [--count C]

Used by the runner: reads the backend from PROSE_STATE_WORKER_BACKEND and its storage from PROSE_STATE_WORKER_ENV
(JSON: projectDir, homeDir, decisions, storageKey). Prints "ready" once the backend answered a read of RUN, then
"ack KEY<TAB>RESULT" per write. With --start-from-stdin it loads its engine first and takes the start index from
the first line of stdin (a worker started ahead of its turn).`,
  async run(argv, io) {
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
      io.env,
    );
    const workload = values.workload as Workload;
    if (!WORKLOADS.includes(workload))
      throw new ProseError('E_USAGE', `--workload must be one of ${WORKLOADS.join(', ')}`);
    if (typeof values.run !== 'string') throw new ProseError('E_USAGE', 'worker needs --run');
    const run: string = values.run;
    const spec = io.env.PROSE_STATE_WORKER_BACKEND;
    const envJson = io.env.PROSE_STATE_WORKER_ENV;
    if (!spec || !envJson)
      throw new ProseError('E_USAGE', 'worker needs PROSE_STATE_WORKER_BACKEND and PROSE_STATE_WORKER_ENV');
    const env = JSON.parse(envJson) as BackendEnv;
    const int = (v: unknown, d: number) => (v === undefined ? d : Number(v));
    const writer = int(values.writer, 0);
    const count = int(values.count, Number.MAX_SAFE_INTEGER);
    const [factory] = await resolveBackends(spec, { env: io.env, cwd: io.cwd });
    // A crash worker started ahead of its kill loads its engine now, then waits for the index to start at (known
    // once the previous kill's acknowledgements are counted); it touches the storage only after that line.
    const early = values['start-from-stdin'] ? firstLine() : undefined;
    try {
      return await work(early);
    } finally {
      early?.release(); // a worker that fails before its start must still exit, not wait on stdin
    }
    async function work(early: ReturnType<typeof firstLine> | undefined): Promise<number> {
      if (early) await factory!.prepare?.();
      const first = early ? await early.line : undefined;
      if (early && first === undefined) return 0; // the runner no longer needs us
      const start = first !== undefined ? Number(first) : int(values.start, 0);
      if (!Number.isSafeInteger(start) || start < 0)
        throw new ProseError('E_USAGE', 'worker: the start is a whole number');
      const backend = await factory!.open(env);
      // Ready means the backend answers: engines that load lazily (WASM SQLite) must not spend the kill window loading.
      await backend.call('getRun', { run }, { role: 'vm' });
      io.stdout.write('ready\n');
      (nodeModule as { flushCompileCache?: () => void }).flushCompileCache?.();
      // Several writers start together: the runner closes our stdin once every one of them is ready.
      if (values['wait-go'] && io.stdin) await io.stdin();
      // A crash writer runs until it is killed; if the runner itself dies, its end of our stdin closes: stop then.
      let orphaned = false;
      if (early)
        void early.closed.then(() => {
          orphaned = true;
        });
      else if (!values['wait-go'] && io.stdin)
        void io.stdin().then(() => {
          orphaned = true;
        });
      try {
        for (let i = start; i < start + count && !orphaned; i++) {
          const item = workItem(
            workload,
            run,
            writer,
            i,
            factory!.capabilities,
            env.decisions.attachmentThresholdBytes,
          );
          let result: unknown;
          try {
            result = await backend.call(item.op, item.args as never, item.actor);
          } catch (err) {
            const e = toProseError(err);
            io.stdout.write(`fail ${item.key}\t${JSON.stringify({ code: e.code, message: e.message })}\n`);
            return 1;
          }
          io.stdout.write(`ack ${item.key}\t${JSON.stringify(result)}\n`);
        }
      } finally {
        await backend.close();
      }
      return 0;
    }
  },
};

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
