import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ArtifactStage, type Planned, type StreamStats } from './artifact-stage.ts';
import { DEFAULT_BUFFER_BYTES } from './artifact-stream.ts';
import { fsSyncCalls, type SyncFsCalls } from './fs-tree-reader.ts';
import type { TreeReader } from './tree-reader.ts';

/**
 * Below this many files a tree is read on one thread: a reader thread takes 15-90 ms to start (more under load),
 * about what 2,000 small files cost to read alone, so a smaller tree would finish before the helper joins.
 */
export const PARALLEL_FROM_FILES = 2048;

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
}

/** What the parallel read did: how much it may hold at once, and how the batches were shared. */
export interface ParallelStats {
  workers: number;
  /** 2 x slots x slotBytes: the most file bytes held read ahead of the hash at any moment. */
  capBytes: number;
  batches: number;
  /** Batches a reader thread read and the hash used (the rest the hashing thread read itself). */
  workerBatches: number;
  /** Batches a reader held too long, read again by the hashing thread instead of waiting (its copy unused). */
  stolen: number;
}

const DEFAULTS = { batchFiles: 64, slotBytes: 256 * 1024, slots: 8 };

export function defaultReaderThreads(): number {
  return Math.max(1, Math.min(3, availableParallelism() - 1));
}

// Control words in a shared Int32Array: the next batch to claim, how many batches are hashed, an abort flag; then
// per slot of the readers' ring (batch j goes to slot j % slots) the (batch index + 1) whose bytes it holds once
// complete; then per slot a busy flag held while a reader writes it (a reader whose batch the hashing thread read
// again may still be writing when the slot's next batch comes up: that batch's reader waits for it).
const NEXT = 0;
const CONSUMED = 1;
const ABORT = 2;
const READY = 3;

/**
 * Reads files [first, end) into `slot` as OPWM1 frames (path length, path, content length, content, lengths LE)
 * and records each frame's length in `table`, or -1 for a file left to the hashing thread: one that does not fit
 * the room left, whose size differs from a listed one, or that could not be opened or read (the hashing thread
 * then reads it itself and raises the error with its path). Self-contained on purpose: the reader thread runs
 * its source text (`fillBatch.toString()`), so it may use nothing from outside its parameters.
 */
function fillBatch(
  fs: SyncFsCalls,
  refs: readonly string[],
  pathBytes: readonly Uint8Array[],
  sizes: readonly number[],
  first: number,
  end: number,
  slot: Uint8Array,
  table: Int32Array,
): void {
  let pos = 0;
  for (let i = first; i < end; i++) {
    const pb = pathBytes[i]!;
    const at = pos + 8 + pb.length;
    const room = slot.length - at;
    table[i - first] = -1;
    if (room <= 0) continue;
    let fd = -1;
    try {
      fd = fs.openSync(refs[i]!, 'r');
      const n = fs.readSync(fd, slot, at, room, null);
      // A full room may hide more bytes; a listed size must match: both are left to the checked path.
      if (n >= room || (sizes[i]! >= 0 && n !== sizes[i])) continue;
      const pl = pb.length;
      slot[pos] = pl & 255;
      slot[pos + 1] = (pl >>> 8) & 255;
      slot[pos + 2] = (pl >>> 16) & 255;
      slot[pos + 3] = (pl >>> 24) & 255;
      slot.set(pb, pos + 4);
      const c = pos + 4 + pl;
      slot[c] = n & 255;
      slot[c + 1] = (n >>> 8) & 255;
      slot[c + 2] = (n >>> 16) & 255;
      slot[c + 3] = (n >>> 24) & 255;
      table[i - first] = 8 + pl + n;
      pos = at + n;
    } catch {
      // left to the hashing thread, which reports the error with the file's path
    } finally {
      if (fd >= 0) fs.closeSync(fd);
    }
  }
}

/** The reader thread: claims batches in order, waits for a free slot (the cap), fills it, marks it ready. */
const WORKER_SOURCE = `
const { workerData: d } = require('node:worker_threads');
const fs = require('node:fs');
const fillBatch = ${fillBatch.toString()};
const ctrl = new Int32Array(d.ctrl);
const BUSY = ${READY} + d.slots;
const pathBytes = d.paths.map((p) => Buffer.from(p, 'utf8'));
for (;;) {
  if (Atomics.load(ctrl, ${ABORT})) break;
  const j = Atomics.add(ctrl, ${NEXT}, 1);
  if (j >= d.batches) break;
  const s = j % d.slots;
  let c;
  while (!Atomics.load(ctrl, ${ABORT}) && j >= (c = Atomics.load(ctrl, ${CONSUMED})) + d.slots) Atomics.wait(ctrl, ${CONSUMED}, c, 1000);
  while (!Atomics.load(ctrl, ${ABORT}) && Atomics.compareExchange(ctrl, BUSY + s, 0, 1) !== 0) Atomics.wait(ctrl, BUSY + s, 1, 1000);
  if (Atomics.load(ctrl, ${ABORT})) break;
  fillBatch(fs, d.refs, pathBytes, d.sizes, j * d.batchFiles, Math.min(d.refs.length, (j + 1) * d.batchFiles),
    new Uint8Array(d.data, s * d.slotBytes, d.slotBytes), new Int32Array(d.tables, s * d.batchFiles * 4, d.batchFiles));
  Atomics.store(ctrl, ${READY} + s, j + 1);
  Atomics.store(ctrl, BUSY + s, 0);
  Atomics.notify(ctrl, BUSY + s);
}
`;

const ignore = (): void => {};

/**
 * The OPWM1 stream of `artifactChunks` for a tree of many files, read by several threads: reader threads claim
 * batches of files in path order and read each into a slot of a shared ring as finished frames; this thread
 * hashes the batches strictly in order, so the bytes and the address are those of the sequential stream. It never
 * waits for a reader: while the next batch is not ready it reads the next unclaimed one into a ring of its own,
 * and with none left to claim it reads the late batch itself (a reader descheduled on a busy machine would
 * otherwise stall the hash). A reader waits for a free slot, so at most 2 x `slots x slotBytes` bytes are held
 * read ahead. This thread starts reading at once and the readers join once started, so a slow start costs the
 * start's CPU and nothing more. Only for the fs reader (the threads open the real files).
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
  const sizes = planned.map((p) => p.file.size);
  const pathBytes = planned.map((p) => p.pathBytes);
  const slotView = (s: number): Uint8Array => new Uint8Array(data, s * slotBytes, slotBytes);
  const tableView = (s: number): Int32Array => new Int32Array(tables, s * batchFiles * 4, batchFiles);
  let workerCount = 0;
  for (let w = 0; w < (opts.workers ?? defaultReaderThreads()); w++) {
    let worker: Worker;
    try {
      worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { ctrl: ctrlBuf, data, tables, refs, paths, sizes, batches, batchFiles, slots, slotBytes },
      });
    } catch {
      break; // no thread to be had (a resource limit): this thread reads what the others would have
    }
    worker.on('error', ignore); // a dead reader's batches are read here, as a late one's are
    worker.unref();
    workerCount++;
  }
  const ps = out ?? { workers: 0, capBytes: 0, batches: 0, workerBatches: 0, stolen: 0 };
  Object.assign(ps, { workers: workerCount, capBytes: 2 * slots * slotBytes, batches, workerBatches: 0, stolen: 0 });
  // This thread's own ring: batch j in own[j % slots], which only this thread touches.
  const own: { batch: number; slot: Uint8Array; table: Int32Array }[] = [];
  const fillHere = (j: number): void => {
    const k = j % slots;
    const mine = (own[k] ??= { batch: -1, slot: new Uint8Array(slotBytes), table: new Int32Array(batchFiles) });
    const first = j * batchFiles;
    fillBatch(fsSyncCalls, refs, pathBytes, sizes, first, Math.min(n, first + batchFiles), mine.slot, mine.table);
    mine.batch = j;
  };
  const stage = new ArtifactStage(n, stats, opts.bufferBytes ?? DEFAULT_BUFFER_BYTES);
  try {
    for (let h = 0; h < batches; h++) {
      const s = h % slots;
      for (;;) {
        if (own[s]?.batch === h || Atomics.load(ctrl, READY + s) === h + 1) break;
        const j = Atomics.load(ctrl, NEXT);
        // Batch h is not ready: read the next unclaimed batch here meanwhile (h itself when nobody claimed it) ...
        if (j < batches && j < h + slots) {
          if (Atomics.compareExchange(ctrl, NEXT, j, j + 1) === j) fillHere(j);
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
        // The checked sequential path, through the stage.
        const entry = planned[i]!;
        const full = stage.flushFor(8 + entry.pathBytes.length);
        if (full) yield full;
        yield* stage.stageWhole(access, entry, i);
      }
      Atomics.store(ctrl, CONSUMED, h + 1);
      Atomics.notify(ctrl, CONSUMED);
    }
    if (stage.pos > 0) yield stage.take();
  } finally {
    // Done or stopped early: readers still waiting for a slot or about to claim one leave.
    Atomics.store(ctrl, ABORT, 1);
    Atomics.notify(ctrl, CONSUMED);
    for (let k = 0; k < slots; k++) Atomics.notify(ctrl, READY + slots + k);
  }
}
