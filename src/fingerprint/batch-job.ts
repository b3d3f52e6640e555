import type { SyncFsCalls } from './fs-tree-reader.ts';

// A batch job (`artifactChunksParallel`): readers claim batches of small files and read each into a slot as whole
// frames. Its control words in a shared Int32Array: the next batch to claim, how many batches are hashed, an abort
// flag, how many readers are inside the job (-1: closed); then per slot of the readers' ring (batch j goes to slot
// j % slots) the (batch index + 1) whose bytes it holds once complete; then per slot a busy flag held while a reader
// writes it (a reader whose batch the hashing thread read again may still be writing when the slot's next batch
// comes up: that batch's reader waits for it).
export const NEXT = 0;
export const CONSUMED = 1;
export const ABORT = 2;
export const ACTIVE = 3;
export const READY = 4;

/**
 * Reads files [first, end) into `slot` as OPWM1 frames (path length, path, content length, content, lengths LE)
 * and records each frame's length in `table`, or -1 for a file left to the hashing thread: one that does not fit
 * the room left, whose size differs from a listed one, or that could not be opened or read (the hashing thread
 * then reads it itself and raises the error with its path). The path is encoded straight into the slot (planned
 * paths are well-formed, so `write` gives `Buffer.from`'s bytes; a path cut short by the slot's end leaves under 4
 * bytes, so no room). Self-contained on purpose: the reader thread runs its source text (`fillBatch.toString()`),
 * so it may use nothing from outside its parameters.
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
      slot[pos] = pl & 255;
      slot[pos + 1] = (pl >>> 8) & 255;
      slot[pos + 2] = (pl >>> 16) & 255;
      slot[pos + 3] = (pl >>> 24) & 255;
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
