import { writeFrameLengths } from '../canon/opwm1-frame.ts';
import type { SyncFsCalls } from './fs-tree-reader.ts';
import { aborted, awaitFreeSlot } from './job-control.ts';

// A batch job (`artifactChunksParallel`): readers claim batches of small files and read each into a slot as whole
// frames. Its control words (`job-control.ts` for the shared ones): the next batch to claim; then per slot of the
// readers' ring (batch j goes to slot j % slots) the (batch index + 1) whose bytes it holds once complete; then per
// slot a busy flag held while a reader writes it (a reader whose batch the hashing thread read again may still be
// writing when the slot's next batch comes up: that batch's reader waits for it).
export const NEXT = 0;
export const READY = 4;

/** A batch job as a reader thread receives it. */
export interface BatchJob {
  kind: 'batches';
  ctrl: SharedArrayBuffer;
  /** The readers' ring: `slots` x `slotBytes`. */
  data: SharedArrayBuffer;
  /** Per slot, `batchFiles` frame lengths (`fillBatch`). */
  tables: SharedArrayBuffer;
  /** The files' refs and paths, joined by NUL (one string clones faster than 10,000). */
  refs: string;
  paths: string;
  sizes: Float64Array | undefined;
  batches: number;
  batchFiles: number;
  slots: number;
  slotBytes: number;
}

/**
 * A reader thread's side of a batch job: claims batches in order, waits for a free slot (the cap) and for its busy
 * flag, fills it, marks it ready; until no batch is left or the job is aborted.
 */
export function serveBatches(fs: SyncFsCalls, d: BatchJob): void {
  const ctrl = new Int32Array(d.ctrl);
  const refs = d.refs.split('\0');
  const paths = d.paths.split('\0');
  const busy = READY + d.slots;
  for (;;) {
    if (aborted(ctrl)) break;
    const j = Atomics.add(ctrl, NEXT, 1);
    if (j >= d.batches) break;
    const s = j % d.slots;
    if (!awaitFreeSlot(ctrl, j, d.slots)) break;
    while (!aborted(ctrl) && Atomics.compareExchange(ctrl, busy + s, 0, 1) !== 0) Atomics.wait(ctrl, busy + s, 1, 1000);
    if (aborted(ctrl)) break;
    const slot = Buffer.from(d.data, s * d.slotBytes, d.slotBytes);
    const table = new Int32Array(d.tables, s * d.batchFiles * 4, d.batchFiles);
    fillBatch(fs, refs, paths, d.sizes, j * d.batchFiles, Math.min(refs.length, (j + 1) * d.batchFiles), slot, table);
    Atomics.store(ctrl, READY + s, j + 1);
    Atomics.notify(ctrl, READY + s);
    Atomics.store(ctrl, busy + s, 0);
    Atomics.notify(ctrl, busy + s);
  }
}

/**
 * Reads files [first, end) into `slot` as OPWM1 frames and records each frame's length in `table`, or -1 for a
 * file left to the hashing thread: one that does not fit the room left, whose size differs from a listed one, or
 * that could not be opened or read (the hashing thread then reads it itself and raises the error with its path).
 * The path is encoded straight into the slot (planned paths are well-formed, so `write` gives `Buffer.from`'s
 * bytes; a path cut short by the slot's end leaves under 4 bytes, so no room). Run by the reader threads and, for
 * the batches it reads itself, by the hashing thread.
 */
export function fillBatch(
  fs: SyncFsCalls,
  refs: readonly string[],
  paths: readonly string[],
  sizes: Float64Array | undefined,
  first: number,
  end: number,
  slot: Buffer,
  table: Int32Array,
): void {
  let pos = 0;
  for (let i = first; i < end; i++) {
    table[i - first] = -1;
    if (slot.length - pos <= 8) continue; // every later file of the batch is marked too
    const pl = slot.write(paths[i]!, pos + 4, 'utf8');
    const at = pos + 8 + pl;
    const room = slot.length - at;
    if (room <= 0) continue;
    let fd = -1;
    try {
      fd = fs.openSync(refs[i]!, 'r');
      const n = fs.readSync(fd, slot, at, room, null);
      // A full room may hide more bytes; a listed size must match: both are left to the checked path.
      if (n >= room || (sizes !== undefined && sizes[i]! >= 0 && n !== sizes[i])) continue;
      writeFrameLengths(slot, pos, pl, n);
      table[i - first] = 8 + pl + n;
      pos = at + n;
    } catch {
      // left to the hashing thread, which reports the error with the file's path
    } finally {
      if (fd >= 0) fs.closeSync(fd);
    }
  }
}
