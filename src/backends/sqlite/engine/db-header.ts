import { ProseError } from '../../../core/errors.ts';

const MAGIC = 'SQLite format 3\0';

/**
 * Checks the 100-byte SQLite header before the bytes reach `sqlite3_deserialize`, so a file that is not SQLite, or
 * was cut short, is refused with its own message (https://sqlite.org/fileformat2.html#the_database_header).
 * An empty file is a valid empty database, as in SQLite itself.
 */
export function checkDbBytes(bytes: Uint8Array, file: string): void {
  if (bytes.length === 0) return;
  const corrupt = (message: string, hint?: string): never => {
    throw new ProseError('E_CORRUPT', `${file}: ${message}`, { location: { file }, hint: hint ?? 'restore the file from a backup; it was left untouched' });
  };
  if (bytes.length < 100 || Buffer.from(bytes.subarray(0, 16)).toString('latin1') !== MAGIC) {
    corrupt('is not a SQLite database (no "SQLite format 3" header)', 'point at a state.db written by SQLite; the file was left untouched');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const raw = view.getUint16(16);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) corrupt(`has an impossible page size ${raw}`);
  if (bytes.length % pageSize !== 0) corrupt(`is ${bytes.length} bytes, not a whole number of ${pageSize}-byte pages (truncated?)`);
  const changeCounter = view.getUint32(24);
  const pageCount = view.getUint32(28);
  const validFor = view.getUint32(92);
  // The in-header size is trusted only when written by SQLite >= 3.7.0 for this very change (SQLite's own rule).
  if (pageCount !== 0 && validFor === changeCounter && pageCount * pageSize > bytes.length) {
    corrupt(`holds ${bytes.length / pageSize} pages but its header says ${pageCount} (truncated)`);
  }
}

/** Journal mode bytes 18/19 = 2 mark a WAL database. */
export function isWalHeader(bytes: Uint8Array): boolean {
  return bytes.length >= 100 && (bytes[18] === 2 || bytes[19] === 2);
}
