import {
  closeSync,
  fsyncSync,
  futimesSync,
  linkSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Writes a file so a crash leaves the old or the new content, never a torn one: a temp file in the same
 * directory, fsync, rename over the target, fsync of the directory.
 */
export function writeFileAtomic(path: string, data: FileData, opts: { mtimeMs?: number } = {}): void {
  const tmp = writeTemp(path, data, opts.mtimeMs);
  try {
    replaceFile(tmp, path);
  } catch (err) {
    safeUnlink(tmp);
    throw err;
  }
  syncDir(dirname(path));
}

/**
 * Creates `path` with `data` only if it does not exist yet, atomically against other processes: the content is
 * complete before the name appears (hard link of a synced temp file). Returns false when the name was taken.
 */
export function createFileExclusive(path: string, data: string | Uint8Array): boolean {
  const tmp = writeTemp(path, data);
  try {
    linkSync(tmp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    safeUnlink(tmp);
  }
  syncDir(dirname(path));
  return true;
}

/**
 * Creates `dir` and its missing parents, each made durable in its parent directory: a new name survives a power
 * cut only once the directory holding it is fsynced (POSIX), and a file renamed into a directory that is lost is
 * lost with it.
 */
export function mkdirDurable(dir: string): void {
  const first = mkdirSync(dir, { recursive: true });
  if (first === undefined) return;
  for (let d = dir; ; d = dirname(d)) {
    syncDir(dirname(d));
    if (d === first || dirname(d) === d) break;
  }
}

const WINDOWS = process.platform === 'win32';
/** Codes Windows answers a rename over a file another program holds open without FILE_SHARE_DELETE (decisions platform-atomic-replace). */
const TRANSIENT_ON_WINDOWS = new Set(['EPERM', 'EACCES', 'EBUSY']);
const RENAME_TRIES_ON_WINDOWS = 10;

/**
 * rename(2) on POSIX. On Windows, Node's rename is MoveFileEx with REPLACE_EXISTING, which fails for as long as
 * another program (a virus scanner, an indexer) has the target open; that clears within milliseconds, so the
 * rename is retried a few times with a growing pause (~0.5 s in all) before the error is reported.
 */
function replaceFile(tmp: string, path: string): void {
  for (let attempt = 1; ; attempt++) {
    try {
      renameSync(tmp, path);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (!WINDOWS || !TRANSIENT_ON_WINDOWS.has(code) || attempt >= RENAME_TRIES_ON_WINDOWS) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, attempt * 10);
    }
  }
}

/** A file's content: text (written as UTF-8), bytes, or bytes in pieces written one after another (no copy joins them). */
export type FileData = string | Uint8Array | readonly Uint8Array[];

/** `mtimeMs` stamps the file's modification time before it is renamed into place (a reader's cache key, state-md-file.ts). */
function writeTemp(path: string, data: FileData, mtimeMs?: number): string {
  mkdirDurable(dirname(path));
  const tmp = join(dirname(path), `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
  const fd = openSync(tmp, 'wx', 0o644);
  try {
    const pieces = typeof data === 'string' ? [Buffer.from(data, 'utf8')] : data instanceof Uint8Array ? [data] : data;
    for (const buf of pieces) {
      let off = 0;
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    }
    if (mtimeMs !== undefined) futimesSync(fd, mtimeMs / 1000, mtimeMs / 1000);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    safeUnlink(tmp);
    throw err;
  }
  closeSync(fd);
  return tmp;
}

export function syncDir(dir: string): void {
  // Windows cannot open a directory as a file (EISDIR) and has no directory fsync: NTFS journals the rename itself.
  if (WINDOWS) return;
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function safeUnlink(p: string): void {
  try {
    unlinkSync(p);
  } catch {
    /* already gone */
  }
}
