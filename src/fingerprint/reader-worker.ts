import * as fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { serveBatches, type BatchJob } from './batch-job.ts';
import { fillFrames, type FramesJob } from './frame-job.ts';
import { enterJob, leaveJob } from './job-control.ts';

/**
 * A reader thread's program (started by `reader-threads.ts`, never imported): it serves one job per message, a
 * tree's frames job (`fillFrames`) or its batch job (`serveBatches`), entered only while the job is open, so a
 * message that arrives after the job ended is dropped. Its imports stay small and free of TypeScript-only syntax:
 * from a checkout Node strips the types itself, and the binary's bundle step bundles this file to one script.
 */
parentPort!.on('message', (job: BatchJob | FramesJob) => {
  const ctrl = new Int32Array(job.ctrl);
  if (!enterJob(ctrl)) return;
  try {
    if (job.kind === 'frames') fillFrames(fs, job);
    else serveBatches(fs, job);
  } finally {
    leaveJob(ctrl);
  }
});

// Told through shared memory, not a message: a caller that never turns the event loop would not see one.
Atomics.store(new Int32Array((workerData as { started: SharedArrayBuffer }).started), 0, 1);
