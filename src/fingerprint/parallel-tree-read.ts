import { availableParallelism } from 'node:os';
import { ArtifactStage, type Planned, type StreamStats } from './artifact-stage.ts';
import { DEFAULT_BUFFER_BYTES } from './artifact-stream.ts';
import { stageStart, streamRestAsync, type Spare } from './artifact-stream-async.ts';
import { BatchRing, type Batch, type BatchShape, type ParallelStats } from './batch-ring.ts';
import { readerThreads } from './reader-threads.ts';
import type { TreeFileAccess, TreeReader } from './tree-reader.ts';

export type { ParallelStats };

/**
 * Below this many files a tree is read on one thread while no reader thread has started: one takes 15-90 ms to
 * start (more under load), about what 2,000 small files cost to read alone, so a smaller tree would finish before
 * the helper joins. The threads stay once started.
 */
export const PARALLEL_FROM_FILES = 2048;

/**
 * With reader threads started, from this many files. Below it the gain is under a millisecond (by CPU time, on
 * 512 x 1 KiB: 4.2 ms on the hashing thread against 4.7 ms alone), which a late hand-over (the message a reader
 * wakes for takes 0.05-1 ms, more on a busy machine) can eat.
 */
export const PARALLEL_WARM_FROM_FILES = 1024;

export interface ParallelOptions {
  /** Files per batch (a unit of work one thread claims). */
  batchFiles?: number;
  /** Bytes of one batch slot; a file that does not fit its slot is read by the hashing thread itself. */
  slotBytes?: number;
  /** Slots in the ring: 2 x slots x slotBytes is the cap on bytes read ahead of the hash (the readers' ring and
   * this thread's own). */
  slots?: number;
  /** Reader threads besides the hashing one (default: one per further core, at most 3). */
  workers?: number;
  bufferBytes?: number;
  /** With `waitMs` above 0: batches this thread reads per batch the readers supply before it waits for them. */
  mainShare?: number;
  /** How long this thread waits for a reader's batch once past its share; after one wait that long it waits no
   * more in this tree. Default 0: it never waits while a batch is left to claim (measured fastest, below). */
  waitMs?: number;
}

const DEFAULTS = { batchFiles: 64, slotBytes: 256 * 1024, slots: 8, mainShare: 0.5, waitMs: 0 };

export function defaultReaderThreads(): number {
  return Math.max(1, Math.min(3, availableParallelism() - 1));
}

/**
 * The OPWM1 stream of `artifactChunks` for a tree of many files, read by several threads: reader threads (pooled,
 * started by the first such tree) claim batches of files in path order and read each into a slot of a shared ring
 * as finished frames; this thread hashes the batches strictly in order, so the bytes and the address are those of
 * the sequential stream. While the next batch is not ready, this thread reads the next unclaimed one into a ring
 * of its own, and with nothing left to claim reads the late batch itself. Hashing is a small part of the work
 * (7 of ~115 ms of CPU on 10,000 x 1 KiB), so both threads are best kept reading: the readers then supply about
 * half the batches. (With `waitMs` > 0 it reads only `mainShare` batches per batch the readers supplied and past
 * that waits for the reader holding the batch, at most `waitMs`, once: a tuning aid, measured slower, docs/bench.md.)
 * A reader waits for a free slot, so at most 2 x `slots x slotBytes` bytes are held read ahead. A thread still
 * starting (the first tree) costs its start's CPU and nothing more: this thread reads until it joins. Only for the
 * fs reader (the threads open the real files).
 */
export async function* artifactChunksParallel(
  reader: TreeReader,
  planned: readonly Planned[],
  stats: StreamStats,
  opts: ParallelOptions = {},
  out?: ParallelStats,
): AsyncGenerator<Uint8Array> {
  const shape: BatchShape = {
    batchFiles: opts.batchFiles ?? DEFAULTS.batchFiles,
    slotBytes: opts.slotBytes ?? DEFAULTS.slotBytes,
    slots: opts.slots ?? DEFAULTS.slots,
    mainShare: opts.mainShare ?? DEFAULTS.mainShare,
    waitMs: opts.waitMs ?? DEFAULTS.waitMs,
  };
  const readers = readerThreads(opts.workers ?? defaultReaderThreads());
  const ps = out ?? { workers: 0, capBytes: 0, batches: 0, workerBatches: 0, stolen: 0 };
  const ring = new BatchRing(planned, shape, ps, readers.length);
  if (readers.length > 0) {
    const job = ring.message();
    for (const w of readers) w.postMessage(job);
  }
  const stage = new ArtifactStage(planned.length, stats, opts.bufferBytes ?? DEFAULT_BUFFER_BYTES);
  const spare: Spare = {};
  try {
    for (let h = 0; h < ring.batches; h++) {
      yield* batchChunks(reader.access!, planned, stage, ring.take(h), h * shape.batchFiles, spare);
      ring.done(h);
    }
    if (stage.holding) yield stage.take();
  } finally {
    ring.close();
  }
}

/**
 * The stream's part from one batch whose first file is `first`: runs of frames in the slot go out as one chunk
 * each; a file left to this thread (-1) ends a run and is read through the stage on the checked sequential path
 * (a large file's rest read on the thread pool while the part before is hashed, as in `artifactChunksAsync`).
 */
async function* batchChunks(
  access: TreeFileAccess,
  planned: readonly Planned[],
  stage: ArtifactStage,
  { slot, table }: Batch,
  first: number,
  spare: Spare,
): AsyncGenerator<Uint8Array> {
  const end = Math.min(planned.length, first + table.length);
  let from = 0;
  let pos = 0;
  // The pass at i === end hands on the last run.
  for (let i = first; i <= end; i++) {
    const len = i < end ? table[i - first]! : -1;
    if (len >= 0) {
      pos += len;
      continue;
    }
    if (pos > from) {
      if (stage.holding) yield stage.take();
      stage.stats.bytes += pos - from;
      yield slot.subarray(from, pos);
    }
    from = pos;
    if (i === end) break;
    const entry = planned[i]!;
    const full = stage.flushFor(8 + entry.pathBytes.length);
    if (full) yield full;
    if (access.readIntoAsync) {
      const open = stageStart(access, stage, entry, i);
      if (open) yield* streamRestAsync(access, stage, entry, open, spare);
    } else yield* stage.stageWhole(access, entry, i);
  }
}
