import { availableParallelism } from 'node:os';
import { ArtifactStage, type Planned, type StreamStats } from './artifact-stage.ts';
import { DEFAULT_BUFFER_BYTES } from './artifact-stream.ts';
import { stageStart, streamRestAsync, type Spare } from './artifact-stream-async.ts';
import { fillBatch, NEXT, READY, type BatchJob } from './batch-job.ts';
import { closeJob, markConsumed } from './job-control.ts';
import { fsSyncCalls } from './fs-tree-reader.ts';
import { readerThreads } from './reader-threads.ts';
import type { TreeReader } from './tree-reader.ts';

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

/** What the parallel read did: how much it may hold at once, and how the batches were shared. */
export interface ParallelStats {
  workers: number;
  /** 2 x slots x slotBytes: the most file bytes held read ahead of the hash at any moment. */
  capBytes: number;
  batches: number;
  /** Batches a reader thread read and the hash used (the rest the hashing thread read itself). */
  workerBatches: number;
  /** Batches a reader still held when nothing was left to claim, read again by the hashing thread instead of
   * waiting (its copy unused). */
  stolen: number;
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
 * A reader waits for a free slot, so at most 2 x `slots x slotBytes` bytes are held read ahead. A thread still starting (the first tree) costs its start's
 * CPU and nothing more: this thread reads until it joins. Only for the fs reader (the threads open the real files).
 */
export async function* artifactChunksParallel(
  reader: TreeReader,
  planned: readonly Planned[],
  stats: StreamStats,
  opts: ParallelOptions = {},
  out?: ParallelStats,
): AsyncGenerator<Uint8Array> {
  const access = reader.access!;
  const batchFiles = opts.batchFiles ?? DEFAULTS.batchFiles;
  const slotBytes = opts.slotBytes ?? DEFAULTS.slotBytes;
  const slots = opts.slots ?? DEFAULTS.slots;
  const n = planned.length;
  const batches = Math.ceil(n / batchFiles);
  const ctrlBuf = new SharedArrayBuffer(4 * (READY + 2 * slots));
  const ctrl = new Int32Array(ctrlBuf);
  const data = new SharedArrayBuffer(slots * slotBytes);
  const tables = new SharedArrayBuffer(4 * slots * batchFiles);
  const refs = planned.map((p) => p.file.ref);
  const paths = planned.map((p) => p.file.path);
  const sizes = planned.some((p) => p.file.size >= 0) ? Float64Array.from(planned, (p) => p.file.size) : undefined;
  const slotView = (s: number): Uint8Array => new Uint8Array(data, s * slotBytes, slotBytes);
  const tableView = (s: number): Int32Array => new Int32Array(tables, s * batchFiles * 4, batchFiles);
  const readers = readerThreads(opts.workers ?? defaultReaderThreads());
  if (readers.length > 0) {
    const job: BatchJob = {
      kind: 'batches',
      ctrl: ctrlBuf,
      data,
      tables,
      refs: refs.join('\0'),
      paths: paths.join('\0'),
      sizes,
      batches,
      batchFiles,
      slots,
      slotBytes,
    };
    for (const w of readers) w.postMessage(job);
  }
  const workerCount = readers.length;
  const ps = out ?? { workers: 0, capBytes: 0, batches: 0, workerBatches: 0, stolen: 0 };
  Object.assign(ps, { workers: workerCount, capBytes: 2 * slots * slotBytes, batches, workerBatches: 0, stolen: 0 });
  // This thread's own ring: batch j in own[j % slots], which only this thread touches.
  const own: { batch: number; slot: Buffer; table: Int32Array }[] = [];
  const fillHere = (j: number): void => {
    const k = j % slots;
    const mine = (own[k] ??= { batch: -1, slot: Buffer.allocUnsafe(slotBytes), table: new Int32Array(batchFiles) });
    const first = j * batchFiles;
    fillBatch(fsSyncCalls, refs, paths, sizes, first, Math.min(n, first + batchFiles), mine.slot, mine.table);
    mine.batch = j;
  };
  const stage = new ArtifactStage(n, stats, opts.bufferBytes ?? DEFAULT_BUFFER_BYTES);
  const share = opts.mainShare ?? DEFAULTS.mainShare;
  const waitMs = opts.waitMs ?? DEFAULTS.waitMs;
  let waiting = workerCount > 0 && waitMs > 0;
  let claimed = 0;
  const spare: Spare = {};
  try {
    for (let h = 0; h < batches; h++) {
      const s = h % slots;
      for (;;) {
        const ready = Atomics.load(ctrl, READY + s);
        if (own[s]?.batch === h || ready === h + 1) break;
        const j = Atomics.load(ctrl, NEXT);
        // Batch h is not ready. Nobody claimed it: read it here. A reader holds it: read the next unclaimed batch
        // here meanwhile while this thread's share allows, else wait for the reader ...
        if (j < batches && j < h + slots && (j === h || !waiting || claimed < share * (ps.workerBatches + 1))) {
          if (Atomics.compareExchange(ctrl, NEXT, j, j + 1) === j) {
            fillHere(j);
            claimed++;
          }
          continue;
        }
        if (waiting) {
          if (Atomics.wait(ctrl, READY + s, ready, waitMs) === 'timed-out') waiting = false;
          continue;
        }
        // ... and with nothing left to claim, read h again rather than wait for the reader holding it.
        fillHere(h);
        ps.stolen++;
      }
      const mine = own[s]?.batch === h;
      if (!mine) ps.workerBatches++;
      const slot = mine ? own[s]!.slot : slotView(s);
      const table = mine ? own[s]!.table : tableView(s);
      const first = h * batchFiles;
      const end = Math.min(n, first + batchFiles);
      let from = 0;
      let pos = 0;
      // Runs of frames in the slot go out as one chunk each; a file left to this thread (-1) ends a run. The
      // pass at i === end hands on the last run.
      for (let i = first; i <= end; i++) {
        const len = i < end ? table[i - first]! : -1;
        if (len >= 0) {
          pos += len;
          continue;
        }
        if (pos > from) {
          if (stage.pos > 0) yield stage.take();
          stats.bytes += pos - from;
          yield slot.subarray(from, pos);
        }
        from = pos;
        if (i === end) break;
        // The checked sequential path, through the stage (a large file's rest read on the thread pool while the
        // part before is hashed, as in `artifactChunksAsync`).
        const entry = planned[i]!;
        const full = stage.flushFor(8 + entry.pathBytes.length);
        if (full) yield full;
        if (access.readIntoAsync) {
          const open = stageStart(access, stage, entry, i);
          if (open) yield* streamRestAsync(access, stage, entry, open, spare);
        } else yield* stage.stageWhole(access, entry, i);
      }
      markConsumed(ctrl, h + 1);
    }
    if (stage.pos > 0) yield stage.take();
  } finally {
    // Done or stopped early: readers still waiting for a slot or about to claim one leave; a reader whose message
    // is still queued finds the job closed when no reader is inside it.
    closeJob(ctrl);
    for (let k = 0; k < slots; k++) Atomics.notify(ctrl, READY + slots + k);
  }
}
