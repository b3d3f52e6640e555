import { fstatSync, openSync, readSync, statSync, unlinkSync } from 'node:fs';
import { ProseError } from '../core/errors.ts';
import { closeDbFd } from './native-lock.ts';

const MAGIC = 'SQLite format 3\0';

/**
 * Checks the 100-byte SQLite header against the file's size before SQLite reads the file, so a file that is not
 * SQLite, or was cut short, is refused with its own message (https://sqlite.org/fileformat2.html#the_database_header).
 * An empty file is a valid empty database, as in SQLite itself.
 */
export function checkDbHeader(header: Uint8Array, size: number, file: string): void {
  if (size === 0) return;
  const corrupt = (message: string, hint?: string): never => {
    throw new ProseError('E_CORRUPT', `${file}: ${message}`, {
      location: { file },
      hint: hint ?? 'restore the file from a backup; it was left untouched',
    });
  };
  if (size < 100 || header.length < 100 || Buffer.from(header.subarray(0, 16)).toString('latin1') !== MAGIC) {
    corrupt(
      'is not a SQLite database (no "SQLite format 3" header)',
      'point at a state.db written by SQLite; the file was left untouched',
    );
  }
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  const raw = view.getUint16(16);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0)
    corrupt(`has an impossible page size ${raw}`);
  if (size % pageSize !== 0) corrupt(`is ${size} bytes, not a whole number of ${pageSize}-byte pages (truncated?)`);
  const changeCounter = view.getUint32(24);
  const pageCount = view.getUint32(28);
  const validFor = view.getUint32(92);
  // The in-header size is trusted only when written by SQLite >= 3.7.0 for this very change (SQLite's own rule).
  if (pageCount !== 0 && validFor === changeCounter && pageCount * pageSize > size) {
    corrupt(`holds ${size / pageSize} pages but its header says ${pageCount} (truncated)`);
  }
}

/** `checkDbHeader` on whole bytes in memory. */
export function checkDbBytes(bytes: Uint8Array, file: string): void {
  checkDbHeader(bytes.subarray(0, 100), bytes.length, file);
}

/**
 * `checkDbHeader` on a file on disk, and a WAL database's -wal file: SQLite over our VFS reads a WAL database as a
 * rollback-journal one, which is right only while its -wal holds no frames.
 */
export function checkDbFile(path: string): void {
  if (checkDbFileHeader(path).wal && walFrames(path) > 0) throw walPending(path);
}

/** `checkDbHeader` on a file on disk; whether its header says WAL. */
export function checkDbFileHeader(path: string): { wal: boolean } {
  const fd = openSync(path, 'r');
  const header = new Uint8Array(100);
  let size: number;
  try {
    size = fstatSync(fd).size;
    readSync(fd, header, 0, 100, 0);
  } finally {
    closeDbFd(fd); // this process may hold a native lock on the file (native-lock.ts)
  }
  checkDbHeader(header, size, path);
  return { wal: isWalHeader(header) };
}

/** Journal mode bytes 18/19 = 2 mark a WAL database. */
export function isWalHeader(bytes: Uint8Array): boolean {
  return bytes.length >= 100 && (bytes[18] === 2 || bytes[19] === 2);
}

export function walPending(path: string): ProseError {
  return new ProseError('E_FORMAT', `${path} is in WAL mode with un-checkpointed changes in ${path}-wal`, {
    location: { file: path },
    hint: `run: sqlite3 ${path} 'PRAGMA journal_mode=DELETE'`,
  });
}

function walFrames(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}

/** Removes a database a failed first write created and left empty, and its journal (nothing of anyone's is in them). */
export function removeIfLeftEmpty(path: string): void {
  if (statSync(path, { throwIfNoEntry: false })?.size !== 0) return;
  for (const f of [path, `${path}-journal`])
    try {
      unlinkSync(f);
    } catch {
      /* gone */
    }
}
