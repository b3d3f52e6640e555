import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';

/**
 * How many bytes before the end of what was read last are read again and compared on the next read. A writer that
 * follows the format only appends; one that does not (a rewrite, a cut) almost always changes the bytes near the end
 * as well (decision fs-append-only-tail).
 */
export const TAIL_CHECK = 4096;

/** What a read found: the file's complete lines from its start, only those appended since, or no file. */
export type Appended = { from: 'start'; bytes: Buffer } | { from: 'end'; bytes: Buffer } | { from: 'missing' };

/**
 * Reads a file that is only ever appended to (execution.jsonl, vm.log.md) by what was added since the last read,
 * so a read costs the same however long the file is. The rest is trusted while the file is the same inode, no
 * shorter than what was read, and its last TAIL_CHECK bytes read are unchanged; otherwise it is read from the start.
 * Only complete lines are handed out: a last line without its newline is an append still being written.
 */
export class AppendedBytes {
  private seen: { dev: number; ino: number; end: number; tail: Buffer } | undefined;
  /** Reads from the start since this was made: what the specs count to see that a read took only the new bytes. */
  wholeReads = 0;

  read(file: string): Appended {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      this.seen = undefined;
      return { from: 'missing' };
    }
    try {
      const st = fstatSync(fd);
      const last = this.seen;
      if (last !== undefined && last.dev === st.dev && last.ino === st.ino && st.size >= last.end) {
        const from = last.end - last.tail.length;
        const buf = Buffer.alloc(st.size - from);
        if (readFully(fd, buf, from) && buf.subarray(0, last.tail.length).equals(last.tail)) {
          const more = completeBytes(buf.subarray(last.tail.length));
          this.remember(st, last.end + more.length, Buffer.concat([last.tail, more]));
          return { from: 'end', bytes: more };
        }
      }
      this.wholeReads++;
      const bytes = completeBytes(readFileSync(fd));
      this.remember(st, bytes.length, bytes);
      return { from: 'start', bytes };
    } finally {
      closeSync(fd);
    }
  }

  /** The next read starts from the beginning (a caller whose parse of the bytes failed). */
  forget(): void {
    this.seen = undefined;
  }

  private remember(st: { dev: number; ino: number }, end: number, upToEnd: Buffer): void {
    // A copy: a view would keep the whole buffer it came from alive.
    const tail = Buffer.from(upToEnd.subarray(Math.max(0, upToEnd.length - TAIL_CHECK)));
    this.seen = { dev: st.dev, ino: st.ino, end, tail };
  }
}

/** The bytes up to and including the last newline. */
function completeBytes(bytes: Buffer): Buffer {
  return bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1);
}

/** Fills `buf` from `position`; false when the file ended first (it was cut after the stat). */
function readFully(fd: number, buf: Buffer, position: number): boolean {
  let done = 0;
  while (done < buf.length) {
    const n = readSync(fd, buf, done, buf.length - done, position + done);
    if (n === 0) return false;
    done += n;
  }
  return true;
}
