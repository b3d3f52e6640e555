import { Worker } from 'node:worker_threads';
import { ABORT, ACTIVE, CONSUMED, fillBatch, NEXT, READY } from './batch-job.ts';
import { fillFrames } from './frame-job.ts';

/**
 * A reader thread: started once and kept (unref'd, so it never holds the process open), it serves one job per
 * message. A job is one tree: its shared control words and ring, and its files' refs and paths joined by NUL (one
 * string clones faster than 10,000). The thread enters a job only while the job is open (ACTIVE >= 0), so a
 * message that arrives after the job ended is dropped. A frames job it reads alone (`fillFrames`); in a batch job
 * it claims batches in order, waits for a free slot (the cap), fills it, marks it ready. The job functions run from
 * their source text, which tsx (not the bundle) compiles with calls to its `__name` helper: defined here as a no-op.
 */
const WORKER_SOURCE = `
var __name = (f) => f;
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const fillBatch = ${fillBatch.toString()};
const fillFrames = ${fillFrames.toString()};
parentPort.on('message', (d) => {
  const ctrl = new Int32Array(d.ctrl);
  for (;;) {
    const a = Atomics.load(ctrl, ${ACTIVE});
    if (a < 0) return;
    if (Atomics.compareExchange(ctrl, ${ACTIVE}, a, a + 1) === a) break;
  }
  try {
    if (d.kind === 'frames') return fillFrames(fs, d);
    const refs = d.refs.split('\\0');
    const paths = d.paths.split('\\0');
    const BUSY = ${READY} + d.slots;
    for (;;) {
      if (Atomics.load(ctrl, ${ABORT})) break;
      const j = Atomics.add(ctrl, ${NEXT}, 1);
      if (j >= d.batches) break;
      const s = j % d.slots;
      let c;
      while (!Atomics.load(ctrl, ${ABORT}) && j >= (c = Atomics.load(ctrl, ${CONSUMED})) + d.slots) Atomics.wait(ctrl, ${CONSUMED}, c, 1000);
      while (!Atomics.load(ctrl, ${ABORT}) && Atomics.compareExchange(ctrl, BUSY + s, 0, 1) !== 0) Atomics.wait(ctrl, BUSY + s, 1, 1000);
      if (Atomics.load(ctrl, ${ABORT})) break;
      fillBatch(fs, refs, paths, d.sizes, j * d.batchFiles, Math.min(refs.length, (j + 1) * d.batchFiles),
        Buffer.from(d.data, s * d.slotBytes, d.slotBytes), new Int32Array(d.tables, s * d.batchFiles * 4, d.batchFiles));
      Atomics.store(ctrl, ${READY} + s, j + 1);
      Atomics.notify(ctrl, ${READY} + s);
      Atomics.store(ctrl, BUSY + s, 0);
      Atomics.notify(ctrl, BUSY + s);
    }
  } finally {
    Atomics.sub(ctrl, ${ACTIVE}, 1);
  }
});
Atomics.store(new Int32Array(workerData.started), 0, 1);
`;

/** The reader threads, started on first use and kept for the next trees (a thread costs 30-40 ms of CPU to start). */
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
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { started: started.buffer } });
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
