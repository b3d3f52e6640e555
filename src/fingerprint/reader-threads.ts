import { Worker } from 'node:worker_threads';

/**
 * The reader threads: each runs `reader-worker.ts`, started once and kept (unref'd, so it never holds the process
 * open), serving one job per message. In the single binary that program is a script the bundle step made of it
 * (scripts/binary/bundle.mjs defines the constant below); from a checkout the thread loads the file itself, its
 * types stripped by Node (so without tsx in the thread: `execArgv` empty, which measured about 40 ms less CPU per
 * thread started than loading tsx there), except under node_modules, where Node strips no types and tsx must.
 */
declare const __PROSE_STATE_READER_WORKER__: string | undefined;

const WORKER_FILE = new URL('./reader-worker.ts', import.meta.url);

function startReader(workerData: { started: SharedArrayBuffer }): Worker {
  if (typeof __PROSE_STATE_READER_WORKER__ === 'string')
    return new Worker(__PROSE_STATE_READER_WORKER__, { eval: true, workerData });
  const execArgv = WORKER_FILE.pathname.includes('/node_modules/') ? undefined : [];
  return new Worker(WORKER_FILE, { workerData, execArgv });
}

/** The reader threads, started on first use and kept for the next trees (a thread costs 30-40 ms of CPU to start in
 * the binary, more from a checkout, where Node strips its types). */
const pool: { worker: Worker; started: Int32Array }[] = [];

/**
 * A thread tells it has started through shared memory rather than a message: a caller that fingerprints tree after
 * tree without a turn of the event loop (nothing to await but the stream) would never see the message.
 */
const isReady = (e: { started: Int32Array }): boolean => Atomics.load(e.started, 0) === 1;

/**
 * `count` reader threads from the pool, started as needed (a thread that cannot be had, a resource limit, leaves
 * fewer: this thread reads what the others would have). A thread that dies leaves the pool; its batches are read
 * here, as a late one's are.
 */
export function readerThreads(count: number): Worker[] {
  while (pool.length < count) {
    let worker: Worker;
    const started = new Int32Array(new SharedArrayBuffer(4));
    try {
      worker = startReader({ started: started.buffer as SharedArrayBuffer });
    } catch {
      break;
    }
    const entry = { worker, started };
    const leave = (): void => {
      const k = pool.indexOf(entry);
      if (k >= 0) pool.splice(k, 1);
    };
    worker.on('error', leave);
    worker.on('exit', leave);
    worker.unref();
    pool.push(entry);
  }
  return pool.slice(0, count).map((e) => e.worker);
}

/** A pooled reader thread that has started, if any. */
export function readyReaderThread(): Worker | undefined {
  return pool.find(isReady)?.worker;
}

/** Pooled reader threads that have started (a tree read now has them from its first batch). */
export function readyReaderThreads(): number {
  return pool.filter(isReady).length;
}

/** Stops the pooled reader threads (the next parallel read starts new ones). */
export async function closeReaderThreads(): Promise<void> {
  await Promise.all(pool.splice(0).map((e) => e.worker.terminate()));
}
