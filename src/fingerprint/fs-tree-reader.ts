import { closeSync, fstatSync, openSync, read, readdirSync, readSync, statSync, type Dirent } from 'node:fs';
import { basename } from 'node:path';
import { ProseError } from '../core/errors.ts';
import type { TreeFile, TreeFileAccess, TreeKind, TreeReader } from './tree-reader.ts';

/**
 * The one file of src/fingerprint that touches the disk on the hashing thread (the reader threads' program,
 * `reader-worker.ts`, hands node:fs to its jobs). Sync calls on purpose: on many small files sync fs is 3-7x faster
 * than fs/promises here, and the walk is the hot path of a fingerprint. The one async call, `readIntoAsync`, serves
 * large files, where a read can overlap the hashing of the part before it. Many small files are read by other
 * threads with these same sync calls (`parallel-tree-read.ts`).
 */
const UTF8_STRICT = new TextDecoder('utf-8', { fatal: true });

/** Handles are file descriptors. Only `open` wraps its error: the path is known there, as in `chunks`. */
const access: TreeFileAccess = {
  open(file: TreeFile): number {
    try {
      return openSync(file.ref, 'r');
    } catch (err) {
      throw ioError(err, file.ref);
    }
  },
  readInto: (fd, buffer, offset, max) => readSync(fd, buffer, offset, max, null),
  // The callback API, not fs/promises: no FileHandle, one thread-pool hop per read.
  readIntoAsync: (fd, buffer, offset, max) =>
    new Promise((resolve, reject) => {
      read(fd, buffer, offset, max, null, (err, n) => (err ? reject(err) : resolve(n)));
    }),
  size: (fd) => fstatSync(fd).size,
  close: (fd) => closeSync(fd),
};

/** The sync calls a batch reader needs (`parallel-tree-read.ts` passes them in; its reader threads use their own). */
export interface SyncFsCalls {
  openSync(path: string, flags: 'r'): number;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: null): number;
  closeSync(fd: number): void;
}

export const fsSyncCalls: SyncFsCalls = { openSync, readSync, closeSync };

export const fsTreeReader: TreeReader = {
  kind(path: string): TreeKind {
    let st;
    try {
      // The root the caller names is followed if it is a link; links inside the tree are refused.
      st = statSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      throw ioError(err, path);
    }
    return st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other';
  },

  access,

  /** No stat per file: sizes are -1, learned while reading through `access` (the dirent type is enough to refuse). */
  list(root: string): TreeFile[] {
    const out: TreeFile[] = [];
    walk(root, '', out);
    return out;
  },

  single(path: string): TreeFile {
    const st = statSync(path);
    if (!st.isFile()) refuse(path, basename(path), 'not a regular file');
    return { path: basename(path), size: st.size, ref: path };
  },

  *chunks(file: TreeFile, buffer: Uint8Array): Iterable<Uint8Array> {
    let fd: number;
    try {
      fd = openSync(file.ref, 'r');
    } catch (err) {
      throw ioError(err, file.ref);
    }
    try {
      for (;;) {
        const n = readSync(fd, buffer, 0, buffer.length, null);
        if (n === 0) return;
        yield buffer.subarray(0, n);
      }
    } finally {
      closeSync(fd);
    }
  },
};

function walk(dir: string, rel: string, out: TreeFile[]): void {
  let entries: Dirent[];
  try {
    // String names are fast; a name that is not valid UTF-8 decodes with U+FFFD, and only then are the raw bytes read.
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    throw ioError(err, dir);
  }
  for (const entry of entries) {
    const name = entry.name;
    if (name.includes('\uFFFD')) checkUtf8Name(dir, name);
    const abs = `${dir}/${name}`;
    const path = rel === '' ? name : `${rel}/${name}`;
    if (entry.isDirectory()) walk(abs, path, out);
    else if (entry.isFile()) out.push({ path, size: -1, ref: abs });
    else refuse(abs, path, entry.isSymbolicLink() ? 'a symlink' : 'not a regular file (socket, FIFO or device)');
  }
}

/** A real U+FFFD in a name is fine; one standing for undecodable bytes is E_FORMAT, with the bytes in hex. */
function checkUtf8Name(dir: string, name: string): void {
  for (const raw of readdirSync(dir, { encoding: 'buffer' })) {
    try {
      if (UTF8_STRICT.decode(raw) === name) return;
    } catch {
      throw new ProseError('E_FORMAT', `file name is not valid UTF-8 (bytes ${raw.toString('hex')}) in ${dir}`, {
        location: { file: dir },
        hint: 'OPWM1 paths are UTF-8; rename the file',
      });
    }
  }
}

function refuse(abs: string, path: string, what: string): never {
  throw new ProseError('E_FORMAT', `${JSON.stringify(path)} is ${what}; OPWM1 holds only regular files`, {
    location: { file: abs },
    hint: 'replace a symlink with the file it points to, or move it out of the tree',
  });
}

function ioError(err: unknown, path: string): ProseError {
  const e = err as NodeJS.ErrnoException;
  const code = e.code === 'ENOENT' ? 'E_NOT_FOUND' : 'E_IO';
  return new ProseError(code, `${e.code ?? 'error'} reading ${path}: ${e.message}`, {
    location: { file: path },
    cause: err,
  });
}
