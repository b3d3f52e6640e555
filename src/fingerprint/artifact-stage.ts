import { ProseError } from '../core/errors.ts';
import { checkFrame, opwm1FileHeader, opwm1Header, UINT32_MAX } from '../canon/opwm1.ts';
import { writeFrameHeader } from '../canon/opwm1-frame.ts';
import type { TreeFile, TreeFileAccess, TreeReader } from './tree-reader.ts';

export interface StreamStats {
  files: number;
  /** Length of the OPWM1 stream. */
  bytes: number;
}

export interface Planned {
  file: TreeFile;
  pathBytes: Uint8Array;
}

/** A file that did not end where `stageFile` stopped reading: what to hand on first, and where its reading stands. */
export interface Overflow {
  size: number;
  read: number;
  /** The stage up to the bytes already read (or the stage and a standalone header): to hand on before the rest. */
  out: Uint8Array[];
}

/**
 * The staging buffer both artifact streams (sync and async) fill: the stream header, then per file its frame
 * header and, when the file fits, its bytes read straight in behind it. A short read is end of file, so its length
 * is the size and the header is written in front of the bytes afterwards: a small file costs open + read + close.
 * Chunks handed out are views of `buf`, valid until the stream's next step. The buffer and the position are this
 * class's alone: the streams (sync, async, ring, batches) stage, hand on and read through its methods.
 */
export class ArtifactStage {
  private buf: Uint8Array;
  private pos: number;
  /** With less room than this left for content, the stage is handed on first, so that a small file is not sent
   * down the size-query-and-stream path only because the buffer is nearly full. */
  private readonly minRoom: number;

  constructor(
    fileCount: number,
    readonly stats: StreamStats,
    bufferBytes: number,
  ) {
    this.buf = new Uint8Array(Math.max(bufferBytes, 64)); // room at least for the stream header
    const header = opwm1Header(fileCount);
    this.buf.set(header, 0);
    this.pos = header.length;
    this.minRoom = Math.min(4096, this.buf.length >>> 2);
    stats.files = fileCount;
    stats.bytes = header.length;
  }

  /** The staged bytes, to hand on before a frame of `head` bytes when too little room is left; then the stage is empty. */
  flushFor(head: number): Uint8Array | undefined {
    if (this.pos === 0 || this.pos + head + this.minRoom <= this.buf.length) return undefined;
    return this.take();
  }

  /** Everything staged, handed on; the stage starts again at 0. */
  take(): Uint8Array {
    const out = this.buf.subarray(0, this.pos);
    this.pos = 0;
    return out;
  }

  /** Whether anything is staged (to hand on with `take` before bytes that did not come through the stage). */
  get holding(): boolean {
    return this.pos > 0;
  }

  /** The staging buffer's length: a spare buffer for reads off this thread is as large. */
  get size(): number {
    return this.buf.length;
  }

  /**
   * Makes `into` (as large, holding a part just read off this thread) the staging buffer and returns the one the
   * stage held, which the consumer is done with: the next spare.
   */
  swap(into: Uint8Array): Uint8Array {
    const old = this.buf;
    this.buf = into;
    return old;
  }

  /**
   * Accounts for `n` bytes of an overflowing file just read into the staging buffer (`swap`). A full buffer is the
   * next chunk to hand on (`ov.out`; true: read on); a short read is end of file, and that tail stays staged so the
   * next files pack in behind it.
   */
  nextPart(ov: Overflow, entry: Planned, n: number): boolean {
    ov.read += n;
    if (ov.read > ov.size) throw changedSize(entry.file, ov.size, ov.read, true);
    if (n < this.buf.length) {
      this.pos = n;
      return false;
    }
    ov.out = [this.buf.subarray(0, n)];
    return true;
  }

  /**
   * Reads up to `probe` bytes of the open file in behind its frame header. Returns undefined when the file ended
   * there (it is staged whole), else its size (asked of `access` when not listed) and what to hand on before the
   * rest is read, the stage then being empty.
   */
  stageFile(access: TreeFileAccess, handle: number, entry: Planned, i: number, probe = Infinity): Overflow | undefined {
    const { file, pathBytes } = entry;
    const head = 8 + pathBytes.length;
    const room = Math.min(this.buf.length - this.pos - head, probe);
    let got = 0;
    if (room > 0) {
      got = access.readInto(handle, this.buf, this.pos + head, room);
      if (got < room) {
        if (file.size >= 0 && got !== file.size) throw changedSize(file, file.size, got);
        frameHeader(this.buf, this.pos, pathBytes, got, i);
        this.pos += head + got;
        this.stats.bytes += head + got;
        return undefined;
      }
    }
    const size = file.size >= 0 ? file.size : access.size(handle);
    if (got > size) throw changedSize(file, size, got, true);
    let out: Uint8Array[];
    if (room > 0) {
      frameHeader(this.buf, this.pos, pathBytes, size, i);
      out = [this.buf.subarray(0, this.pos + head + got)];
    } else {
      // A path longer than the buffer: its header stands alone.
      const frame = opwm1FileHeader(pathBytes, size, `files[${i}]`);
      out = this.pos > 0 ? [this.buf.subarray(0, this.pos), frame] : [frame];
    }
    this.pos = 0;
    return { size, read: got, out };
  }

  /** One whole file through the stage: opened, staged if it fits, else streamed after what is staged; closed. */
  *stageWhole(access: TreeFileAccess, entry: Planned, i: number): Generator<Uint8Array> {
    const handle = access.open(entry.file);
    try {
      const ov = this.stageFile(access, handle, entry, i);
      if (ov) yield* this.streamRest(access, handle, entry, ov);
    } finally {
      access.close(handle);
    }
  }

  /** The rest of an overflowing file, read through the whole buffer on this thread; checked against its size. */
  *streamRest(access: TreeFileAccess, handle: number, entry: Planned, ov: Overflow): Generator<Uint8Array> {
    yield* ov.out;
    const buf = this.buf;
    let read = ov.read;
    for (let n = access.readInto(handle, buf, 0, buf.length); n > 0; n = access.readInto(handle, buf, 0, buf.length)) {
      read += n;
      if (read > ov.size) break;
      yield buf.subarray(0, n);
    }
    this.finish(entry, ov.size, read);
  }

  /**
   * One file of a reader without `access`: its listed size, the header staged (or alone if it does not fit), the
   * content streamed through the buffer with `chunks`.
   */
  *stageGeneric(reader: TreeReader, entry: Planned, i: number): Generator<Uint8Array> {
    const { file, pathBytes } = entry;
    if (file.size < 0)
      throw new Error(`tree reader listed ${file.path} without a size and offers no access to learn it`);
    const frame = opwm1FileHeader(pathBytes, file.size, `files[${i}]`);
    const buf = this.buf;
    if (this.pos + frame.length <= buf.length) {
      buf.set(frame, this.pos);
      this.pos += frame.length;
      yield this.take();
    } else {
      if (this.pos > 0) yield this.take();
      yield frame;
    }
    let read = 0;
    for (const chunk of reader.chunks(file, buf)) {
      read += chunk.length;
      if (read > file.size) break;
      yield chunk;
    }
    this.finish(entry, file.size, read);
  }

  /**
   * A file read on from `at` content bytes already handed on (of `size`, its frame header with them, and counted
   * in `stats`): what is staged first, then the rest, the first `at` bytes read past; checked against its size.
   */
  *streamFrom(access: TreeFileAccess, entry: Planned, at: number, size: number): Generator<Uint8Array> {
    if (this.pos > 0) yield this.take();
    // `finish` counts the whole frame again.
    this.stats.bytes -= 8 + entry.pathBytes.length + at;
    const handle = access.open(entry.file);
    try {
      for (let skipped = 0; skipped < at;) {
        const n = access.readInto(handle, this.buf, 0, Math.min(this.buf.length, at - skipped));
        if (n === 0) throw changedSize(entry.file, size, skipped);
        skipped += n;
      }
      yield* this.streamRest(access, handle, entry, { size, read: at, out: [] });
    } finally {
      access.close(handle);
    }
  }

  /** Checks a streamed file's length against its size and counts its frame. */
  finish(entry: Planned, size: number, read: number): void {
    if (read !== size) throw changedSize(entry.file, size, read, read > size);
    this.stats.bytes += 8 + entry.pathBytes.length + read;
  }
}

/** The frame header in place; its lengths checked as `opwm1FileHeader` does only when out of range (the hot path). */
function frameHeader(buf: Uint8Array, at: number, pathBytes: Uint8Array, size: number, i: number): void {
  if (size > UINT32_MAX || pathBytes.length > UINT32_MAX) checkFrame(pathBytes.length, size, `files[${i}]`);
  writeFrameHeader(buf, at, pathBytes, size);
}

export function changedSize(file: TreeFile, size: number, read: number, more = false): ProseError {
  return new ProseError(
    'E_IO',
    `${file.path} changed size while being read (${size} ${file.size >= 0 ? 'listed' : 'at open'}, ${read}${more ? '+' : ''} read)`,
    {
      location: { file: file.ref },
      hint: 'fingerprint a tree nobody is writing to',
    },
  );
}
