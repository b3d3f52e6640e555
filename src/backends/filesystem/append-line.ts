import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';

/**
 * Appends one line to a file that is only ever appended to (vm.log.md, execution.jsonl): one write of the line and
 * its newline, then fsync, so an acknowledged line survives a crash. A last line without its newline was cut off by
 * a crash before it was acknowledged: it is dropped first, so the new line never continues it (`torn` is told first).
 */
export function appendLine(file: string, line: string, torn?: (size: number) => void): void {
  const fd = openSync(file, 'r+');
  try {
    let size = fstatSync(fd).size;
    // Only the last byte is read, so an append costs the same however long the file is; the whole file only after a crash.
    if (size > 0 && lastByte(fd, size) !== 0x0a) {
      torn?.(size); // a caller that can tell a crash's cut from another may refuse here
      size = readFileSync(fd).lastIndexOf(0x0a) + 1;
      ftruncateSync(fd, size);
    }
    const data = Buffer.from(`${line}\n`, 'utf8');
    let done = 0;
    while (done < data.length) done += writeSync(fd, data, done, data.length - done, size + done);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function lastByte(fd: number, size: number): number {
  const one = Buffer.alloc(1);
  readSync(fd, one, 0, 1, size - 1);
  return one[0]!;
}

/** The complete lines of an append-only file's text: a last line without its newline is an unacknowledged write. */
export function completeLines(text: string): string[] {
  const end = text.lastIndexOf('\n');
  return end < 0 ? [] : text.slice(0, end).split('\n');
}
