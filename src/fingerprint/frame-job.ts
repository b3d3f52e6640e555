import { writeFrameHeader } from '../canon/opwm1-frame.ts';
import { awaitFreeSlot } from './job-control.ts';

/**
 * A frames job: one reader thread reads a tree's files from a given one on, in path order, into a ring of slots as
 * the OPWM1 stream itself (frame header, content, next frame...), a slot handed on as soon as it is full, while
 * the hashing thread hashes the slot before. Reading then costs the hashing thread nothing: on a quiet 2-core
 * machine 1 x 100 MiB hashed in 0.92x of (read + hash) against 1.02x reading on one thread, and unlike the thread
 * pool's reads (one hop per part) the hashing thread waits only when the ring is empty.
 *
 * Control words in a shared Int32Array: slots published, then the words both job kinds share (`job-control.ts`).
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
 * is end of file.
 */
export function fillFrames(fs: FrameFsCalls, d: FramesJob): void {
  const ring = new RingWriter(d);
  const refs = d.refs.split('\0');
  const paths = d.paths.split('\0');
  if (!ring.acquire()) return;
  for (let k = 0; k < d.count; k++) {
    const i = d.from + k;
    const got = fileIntoRing(fs, ring, d, k, refs[k]!, paths[k]!);
    if (ring.aborted || (!got.whole && !ring.publish(i, got.at, got.size, STOP))) return;
  }
  ring.publish(d.from + d.count, -1, 0, LAST);
}

/** Where the stream stands in a file: `at` content bytes of `size` handed on; `whole` once all of it is. */
interface FileState {
  at: number;
  size: number;
  whole: boolean;
}

const encoder = new TextEncoder();

/**
 * File `k` of the job into the ring: its frame header unless the hashing thread wrote it (the first file, from
 * `startAt`), then its content. A file given up (it could not be opened or read, or its size changed) comes back
 * not whole, for the hashing thread to read on from where it stands, which raises the error with its path.
 */
function fileIntoRing(
  fs: FrameFsCalls,
  ring: RingWriter,
  d: FramesJob,
  k: number,
  ref: string,
  path: string,
): FileState {
  const i = d.from + k;
  const state: FileState = { at: k === 0 ? d.startAt : -1, size: k === 0 ? d.startSize : -1, whole: false };
  let fd = -1;
  try {
    fd = fs.openSync(ref, 'r');
    if (state.at < 0) {
      const listed = d.sizes ? d.sizes[k]! : -1;
      state.size = listed >= 0 ? listed : fs.fstatSync(fd).size;
      const pathBytes = encoder.encode(path);
      // Too large a frame for OPWM1, or a header longer than a slot: the hashing thread's path raises or holds it.
      if (state.size > 0xffffffff || 8 + pathBytes.length > d.slotBytes)
        throw new RangeError('left to the hashing thread');
      if (!ring.header(i, pathBytes, state.size)) return state;
      state.at = 0;
    }
    ring.content(fs, fd, i, state);
  } catch {
    // given up: the hashing thread reads the file on and raises the error with its path
  } finally {
    if (fd >= 0) fs.closeSync(fd);
  }
  return state;
}

/** The reader's end of the ring: the slot it fills, published to the hashing thread as each is full. */
class RingWriter {
  /** Set when the hashing thread aborted the job while this one waited for a free slot. */
  aborted = false;
  private readonly d: FramesJob;
  private readonly ctrl: Int32Array;
  private readonly meta: Float64Array;
  /** Slots published so far; the one being filled is j % slots. */
  private j = 0;
  private slot: Uint8Array = new Uint8Array(0);
  private pos = 0;

  constructor(d: FramesJob) {
    this.d = d;
    this.ctrl = new Int32Array(d.ctrl);
    this.meta = new Float64Array(d.meta);
  }

  /** Waits for slot j to be free; false (and `aborted`) once the job is aborted. */
  acquire(): boolean {
    if (!awaitFreeSlot(this.ctrl, this.j, this.d.slots)) {
      this.aborted = true;
      return false;
    }
    this.slot = new Uint8Array(this.d.ring, (this.j % this.d.slots) * this.d.slotBytes, this.d.slotBytes);
    this.pos = 0;
    return true;
  }

  /** Hands the slot on with where the stream stands after it, then takes the next (not after the last). */
  publish(file: number, at: number, size: number, flags: number): boolean {
    const m = (this.j % this.d.slots) * META_FIELDS;
    this.meta[m] = this.pos;
    this.meta[m + 1] = file;
    this.meta[m + 2] = at;
    this.meta[m + 3] = size;
    this.meta[m + 4] = flags;
    Atomics.store(this.ctrl, PUBLISHED, ++this.j);
    Atomics.notify(this.ctrl, PUBLISHED);
    return (flags & LAST) !== 0 || this.acquire();
  }

  /** File `i`'s frame header, in a fresh slot when this one lacks the room; false when the job was aborted. */
  header(i: number, pathBytes: Uint8Array, size: number): boolean {
    if (this.pos + 8 + pathBytes.length > this.d.slotBytes && !this.publish(i, -1, 0, 0)) return false;
    this.pos += writeFrameHeader(this.slot, this.pos, pathBytes, size);
    return true;
  }

  /** File `i`'s content from `state.at` on, slot after slot; whole when a short read ends it at its size. */
  content(fs: FrameFsCalls, fd: number, i: number, state: FileState): void {
    const slotBytes = this.d.slotBytes;
    for (;;) {
      if (this.pos === slotBytes && !this.publish(i, state.at, state.size, 0)) return;
      const want = Math.min(slotBytes - this.pos, state.size + 1 - state.at);
      const got = fs.readSync(fd, this.slot, this.pos, want, state.at);
      const keep = Math.min(got, state.size - state.at);
      this.pos += keep;
      state.at += keep;
      if (got > keep) return; // past its size: grown
      if (got < want) {
        state.whole = state.at === state.size;
        return;
      }
    }
  }
}
