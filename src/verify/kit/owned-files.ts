import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
  type Stats,
} from 'node:fs';
import { isAbsolute, join, normalize, sep } from 'node:path';

/**
 * The one way a verifier lists and reads the tree it was given. State on disk is written by someone else's program,
 * so nothing here follows a link, opens a FIFO, socket or device, or reads a file past a size cap: `lstat` first,
 * then `O_NOFOLLOW | O_NONBLOCK` on open (a link or FIFO swapped in after the lstat is refused, not followed or
 * waited on). scan-tree.ts reports what these functions leave out.
 */

export type EntryKind = 'file' | 'dir' | 'symlink' | 'special' | 'missing';

/** Why readOwned refused a file; the tree scan has already reported it, so callers stay silent about it. */
export class RefusedFile extends Error {
  constructor(
    readonly why: 'symlink' | 'special' | 'too-large',
    path: string,
  ) {
    super(`${path}: not read (${why})`);
  }
}

export function kindOfStats(s: Stats): Exclude<EntryKind, 'missing'> {
  if (s.isFile()) return 'file';
  if (s.isDirectory()) return 'dir';
  return s.isSymbolicLink() ? 'symlink' : 'special';
}

/** What `p` itself is (a link is a link, not its target); never throws. */
export function kindOf(p: string): EntryKind {
  try {
    return kindOfStats(lstatSync(p));
  } catch {
    return 'missing';
  }
}

/** True when `p` is a regular file (or a directory), not a link to one; never throws. */
export function isKind(p: string, kind: 'file' | 'dir'): boolean {
  return kindOf(p) === kind;
}

/** `rel` under `root`, or undefined when it is absolute or climbs out (a path read from the state itself). */
export function inTree(root: string, rel: string): string | undefined {
  const n = normalize(rel);
  return isAbsolute(n) || n === '..' || n.startsWith(`..${sep}`) ? undefined : join(root, n);
}

/** True when `rel` names a regular file inside `root` (not a link to one, and not a path climbing out). */
export function isFileInTree(root: string, rel: string): boolean {
  const p = inTree(root, rel);
  return p !== undefined && isKind(p, 'file');
}

/** The path the user named may be a link (they chose it); only what lies under it is taken as found. */
export function isRootDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A name from readdir as text, or undefined when its bytes are not UTF-8. */
export function decodeName(raw: Buffer): string | undefined {
  try {
    return UTF8.decode(raw);
  } catch {
    return undefined;
  }
}

/** A name whose bytes are not all printable ASCII, shown with the others as \xNN. */
export function showName(raw: Buffer): string {
  return [...raw]
    .map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`))
    .join('');
}

/**
 * The regular files and directories in `dir` whose names are UTF-8, sorted. Throws RefusedFile when `dir` itself is
 * a link or special file, otherwise as readdirSync does (ENOENT for a missing directory, ENOTDIR for a file).
 */
export function listOwned(dir: string): string[] {
  const kind = kindOf(dir);
  if (kind === 'symlink' || kind === 'special') throw new RefusedFile(kind, dir);
  const names: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, encoding: 'buffer' })) {
    const name = decodeName(e.name);
    if (name !== undefined && (e.isFile() || e.isDirectory())) names.push(name);
  }
  return names.sort();
}

/** A regular file's bytes, at most `maxBytes` of them; throws RefusedFile for a link, special file or one too big. */
export function readOwned(path: string, maxBytes: number): Buffer {
  const kind = kindOf(path);
  if (kind === 'symlink' || kind === 'special') throw new RefusedFile(kind, path);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new RefusedFile('symlink', path);
    throw err;
  }
  try {
    const s = fstatSync(fd);
    if (s.isDirectory())
      throw Object.assign(new Error('EISDIR: illegal operation on a directory, read'), { code: 'EISDIR' });
    if (!s.isFile()) throw new RefusedFile('special', path);
    if (s.size > maxBytes) throw new RefusedFile('too-large', path);
    // Read at most the size seen: a file growing under us cannot take more memory than the cap.
    const buf = Buffer.alloc(s.size);
    let got = 0;
    for (let n = 1; got < buf.length && n > 0; got += n) n = readSync(fd, buf, got, buf.length - got, got);
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** readOwned, with undefined for a file it refuses (the tree scan reports those); other errors thrown. */
export function readIfOwned(path: string, maxBytes: number): Buffer | undefined {
  try {
    return readOwned(path, maxBytes);
  } catch (err) {
    if (err instanceof RefusedFile) return undefined;
    throw err;
  }
}

/** readOwned as UTF-8 text (bytes that are not UTF-8 become U+FFFD, as readFileSync's 'utf8' does). */
export function readOwnedText(path: string, maxBytes: number): string {
  return readOwned(path, maxBytes).toString('utf8');
}
