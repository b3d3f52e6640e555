/**
 * A frames job: one reader thread reads a tree's files from a given one on, in path order, into a ring of slots as
 * the OPWM1 stream itself (frame header, content, next frame...), a slot handed on as soon as it is full, while
 * the hashing thread hashes the slot before. Reading then costs the hashing thread nothing: on a quiet 2-core
 * machine 1 x 100 MiB hashed in 0.92x of (read + hash) against 1.02x reading on one thread, and unlike the thread
 * pool's reads (one hop per part) the hashing thread waits only when the ring is empty.
 *
 * Control words in a shared Int32Array: slots published; slots the hashing thread is done with; an abort flag; how
 * many readers are inside the job (-1: closed). The last three sit where a batch job has its own (`batch-job.ts`),
 * so a reader thread enters and leaves both kinds the same way.
 */
export const PUBLISHED = 0;
export const FRAMES_CONTROL_WORDS = 4;

/**
 * After each slot, in a shared Float64Array (`META_FIELDS` per slot): its length; where the stream stands after it
 * (the file, and how many of its content bytes are handed on: -1 before its frame header); that file's size; flags.
 */
export const META_FIELDS = 5;
/** The reader gave the file up (it could not open or read it, or its size changed): the hashing thread reads it
 * on from where the slot leaves it, which raises the error with the file's path, and the next slot starts the next
 * file. */
export const STOP = 1;
/** The job's last slot. */
export const LAST = 2;

export interface FramesJob {
  kind: 'frames';
  ctrl: SharedArrayBuffer;
  ring: SharedArrayBuffer;
  meta: SharedArrayBuffer;
  slots: number;
  slotBytes: number;
  /** Planned index of the first file; the job holds it and the rest of the tree. */
  from: number;
  count: number;
  /** The files' refs and paths, joined by NUL (one string clones faster than thousands). */
  refs: string;
  paths: string;
  /** Listed sizes (-1: look at open), or none listed. */
  sizes?: Float64Array;
  /** Content bytes of the first file the hashing thread has handed on itself (its header with them: -1 if none). */
  startAt: number;
  /** The first file's size when `startAt` >= 0. */
  startSize: number;
}

/** The file calls a frames reader makes (the reader thread passes node:fs). */
export interface FrameFsCalls {
  openSync(path: string, flags: 'r'): number;
  fstatSync(fd: number): { size: number };
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  closeSync(fd: number): void;
}

/**
 * The reader's side of a frames job. Positioned reads (`at` is the file offset), so the first file can start where
 * the hashing thread left it. A file is read up to one byte past its size, which tells a grown file; a short read
 * is end of file. Self-contained on purpose: the reader thread runs its source text, so it may use nothing from
 * outside its parameters.
 */
export function fillFrames(fs: FrameFsCalls, d: FramesJob): void {
  const ctrl = new Int32Array(d.ctrl);
  const meta = new Float64Array(d.meta);
  const refs = d.refs.split('\0');
  const paths = d.paths.split('\0');
  let j = 0;
  let slot: Uint8Array = new Uint8Array(0);
  let pos = 0;
  // Waits for slot j to be free (the hashing thread done with what it held); false once the job is aborted.
  const acquire = (): boolean => {
    let c: number;
    while (Atomics.load(ctrl, 2) === 0 && j >= (c = Atomics.load(ctrl, 1)) + d.slots) Atomics.wait(ctrl, 1, c, 1000);
    if (Atomics.load(ctrl, 2) !== 0) return false;
    slot = new Uint8Array(d.ring, (j % d.slots) * d.slotBytes, d.slotBytes);
    pos = 0;
    return true;
  };
  const publish = (file: number, at: number, size: number, flags: number): boolean => {
    const m = (j % d.slots) * 5;
    meta[m] = pos;
    meta[m + 1] = file;
    meta[m + 2] = at;
    meta[m + 3] = size;
    meta[m + 4] = flags;
    Atomics.store(ctrl, 0, ++j);
    Atomics.notify(ctrl, 0);
    return (flags & 2) !== 0 || acquire();
  };
  const u32 = (at: number, v: number): void => {
    slot[at] = v & 255;
    slot[at + 1] = (v >>> 8) & 255;
    slot[at + 2] = (v >>> 16) & 255;
    slot[at + 3] = (v >>> 24) & 255;
  };
  const encoder = new TextEncoder();
  if (!acquire()) return;
  for (let k = 0; k < d.count; k++) {
    const i = d.from + k;
    let at = k === 0 ? d.startAt : -1;
    let size = k === 0 ? d.startSize : -1;
    let whole = false;
    let fd = -1;
    try {
      fd = fs.openSync(refs[k]!, 'r');
      if (at < 0) {
        const listed = d.sizes ? d.sizes[k]! : -1;
        size = listed >= 0 ? listed : fs.fstatSync(fd).size;
        const path = encoder.encode(paths[k]!);
        // Too large a frame for OPWM1, or a header longer than a slot: the hashing thread's path raises or holds it.
        if (size > 0xffffffff || 8 + path.length > d.slotBytes) throw new RangeError('left to the hashing thread');
        if (pos + 8 + path.length > d.slotBytes && !publish(i, -1, 0, 0)) return;
        u32(pos, path.length);
        slot.set(path, pos + 4);
        u32(pos + 4 + path.length, size);
        pos += 8 + path.length;
        at = 0;
      }
      for (;;) {
        if (pos === d.slotBytes && !publish(i, at, size, 0)) return;
        const want = Math.min(d.slotBytes - pos, size + 1 - at);
        const got = fs.readSync(fd, slot, pos, want, at);
        const keep = Math.min(got, size - at);
        pos += keep;
        at += keep;
        if (got > keep) break; // past its size: grown
        if (got < want) {
          whole = at === size;
          break;
        }
      }
    } catch {
      // given up: the hashing thread reads the file on and raises the error with its path
    } finally {
      if (fd >= 0) fs.closeSync(fd);
    }
    if (!whole && !publish(i, at, size, 1)) return;
  }
  publish(d.from + d.count, -1, 0, 2);
}
