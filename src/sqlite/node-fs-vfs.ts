import { randomBytes, randomFillSync } from 'node:crypto';
import { accessSync, constants, openSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Database } from '@sqlite.org/sqlite-wasm';
import { syncDir } from '../io/atomic-write.ts';
import type { Sqlite3Static } from './wasm.ts';
import { FCNTL_SIZE_HINT, RC, VfsFile, type FileKind } from './vfs-file.ts';

/** The name SqliteFile opens its databases with. */
export const NODE_FS_VFS = 'prose-node-fs';

// sqlite3.h open flags and xAccess modes.
const OPEN = {
  READONLY: 0x1,
  READWRITE: 0x2,
  CREATE: 0x4,
  DELETEONCLOSE: 0x8,
  EXCLUSIVE: 0x10,
  MAIN_DB: 0x100,
  MAIN_JOURNAL: 0x800,
} as const;
const ACCESS_EXISTS = 0;
const ACCESS_READWRITE = 1;
const FCNTL_FILE_POINTER = 7;

/** The helpers of the WASM build this file uses that its published types leave out. */
interface Wasm {
  heap8u(): Uint8Array;
  cstrToJs(p: number): string;
  poke32(p: number, v: number): void;
  poke64(p: number, v: bigint): void;
  peek64(p: number): bigint;
  poke64f(p: number, v: number): void;
  pokePtr(p: number, v: number): void;
  peekPtr(p: number): number;
  pstack: { pointer: number; allocPtr(): number; restore(p: number): void };
}

/** Open files by their sqlite3_file pointer. One WASM module per process (wasm.ts), so one table. */
const files = new Map<number, VfsFile>();

/**
 * Registers a VFS over node:fs with the loaded WASM SQLite (once per module): real files, written page by page in
 * place, so a commit costs the pages it changed plus its rollback journal. Cross-process exclusion is SqliteFile's
 * lock file; the VFS enforces what the owning SqliteFile allows (VfsFile.access) and honours native sqlite3 locks.
 */
export function installNodeFsVfs(sqlite3: Sqlite3Static): void {
  const api = sqlite3 as unknown as VfsApi;
  if (api.capi.sqlite3_vfs_find(NODE_FS_VFS)) return;
  const wasm = sqlite3.wasm as unknown as Wasm;
  const io = new api.capi.sqlite3_io_methods();
  io.$iVersion = 1; // no shared memory (no WAL) and no mmap
  const vfs = new api.capi.sqlite3_vfs();
  vfs.$iVersion = 2;
  vfs.$szOsFile = api.capi.sqlite3_file.structInfo.sizeof;
  vfs.$mxPathname = 1024;
  api.vfs.installVfs({
    io: { struct: io, methods: ioMethods(wasm) },
    vfs: { struct: vfs, name: NODE_FS_VFS, methods: vfsMethods(wasm, io.pointer) },
  });
}

/** The struct binder and VFS installer, as the WASM build has them (its published types disagree on details). */
interface Struct {
  pointer: number;
  $iVersion: number;
  $szOsFile: number;
  $mxPathname: number;
}
interface VfsApi {
  capi: {
    sqlite3_vfs: new () => Struct;
    sqlite3_io_methods: new () => Struct;
    sqlite3_file: { structInfo: { sizeof: number } };
    sqlite3_vfs_find(name: string): number;
  };
  vfs: {
    installVfs(opt: {
      io: { struct: Struct; methods: object };
      vfs: { struct: Struct; name: string; methods: object };
    }): void;
  };
}

/** The VfsFile behind a connection's main database. */
export function mainFileOf(sqlite3: Sqlite3Static, db: Database): VfsFile {
  const wasm = sqlite3.wasm as unknown as Wasm;
  const stack = wasm.pstack.pointer;
  try {
    const out = wasm.pstack.allocPtr();
    const capi = sqlite3.capi as unknown as {
      sqlite3_file_control(db: unknown, name: string, op: number, p: number): number;
    };
    capi.sqlite3_file_control(db.pointer, 'main', FCNTL_FILE_POINTER, out);
    const file = files.get(wasm.peekPtr(out));
    if (!file) throw new Error(`${db.filename} is not open through ${NODE_FS_VFS}`);
    return file;
  } finally {
    wasm.pstack.restore(stack);
  }
}

/** The last exception a VFS method turned into a result code (ENOSPC, EIO, ...), kept for the error message. */
let lastError: Error | undefined;

/** The error behind the last I/O failure SQLite reported, once. */
export function takeVfsError(): Error | undefined {
  const e = lastError;
  lastError = undefined;
  return e;
}

/** A method body that must not throw into C: an exception becomes `rc`. */
function guard<A extends unknown[]>(rc: number, fn: (...a: A) => number): (...a: A) => number {
  return (...a) => {
    try {
      return fn(...a);
    } catch (err) {
      lastError = err as Error;
      return rc;
    }
  };
}

function ioMethods(wasm: Wasm) {
  const f = (p: number) => files.get(p)!;
  return {
    xClose: guard(RC.IOERR, (p: number) => {
      f(p).close();
      files.delete(p);
      return RC.OK;
    }),
    xRead: guard(RC.IOERR_READ, (p: number, dest: number, n: number, off: bigint) =>
      f(p).read(wasm.heap8u(), dest, n, Number(off)),
    ),
    xWrite: guard(RC.IOERR_WRITE, (p: number, src: number, n: number, off: bigint) =>
      f(p).write(wasm.heap8u(), src, n, Number(off)),
    ),
    xTruncate: guard(RC.IOERR_TRUNCATE, (p: number, size: bigint) => f(p).truncate(Number(size))),
    xSync: guard(RC.IOERR_FSYNC, (p: number) => f(p).sync()),
    xFileSize: guard(RC.IOERR_FSTAT, (p: number, out: number) => (wasm.poke64(out, BigInt(f(p).size())), RC.OK)),
    xLock: guard(RC.IOERR, (p: number, level: number) => f(p).lock(level)),
    xUnlock: guard(RC.IOERR, (p: number, level: number) => f(p).unlock(level)),
    xCheckReservedLock: guard(
      RC.IOERR,
      (p: number, out: number) => (wasm.poke32(out, f(p).checkReservedLock() ? 1 : 0), RC.OK),
    ),
    xFileControl: guard(RC.IOERR, (p: number, op: number, arg: number) =>
      op === FCNTL_SIZE_HINT ? f(p).reserve(Number(wasm.peek64(arg))) : RC.NOTFOUND,
    ),
    // As SQLite's unix VFS: 4 KiB sectors, and a write to one sector never damages its neighbours.
    xSectorSize: () => 4096,
    xDeviceCharacteristics: () => 0x1000, // SQLITE_IOCAP_POWERSAFE_OVERWRITE
  };
}

function vfsMethods(wasm: Wasm, ioPointer: number) {
  return {
    xOpen: guard(RC.CANTOPEN, (_vfs: number, zName: number, pFile: number, flags: number, pOutFlags: number) => {
      const { file, outFlags } = openFile(zName ? wasm.cstrToJs(zName) : undefined, flags);
      files.set(pFile, file);
      wasm.pokePtr(pFile, ioPointer); // sqlite3_file.pMethods is its first member
      if (pOutFlags) wasm.poke32(pOutFlags, outFlags);
      return RC.OK;
    }),
    xDelete: guard(RC.IOERR_DELETE, (_vfs: number, zName: number, dirSync: number) => {
      const path = wasm.cstrToJs(zName);
      try {
        unlinkSync(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return RC.IOERR_DELETE_NOENT;
        throw err;
      }
      if (dirSync) syncDir(dirname(path));
      return RC.OK;
    }),
    xAccess: guard(RC.IOERR, (_vfs: number, zName: number, flags: number, out: number) => {
      wasm.poke32(out, accessible(wasm.cstrToJs(zName), flags) ? 1 : 0);
      return RC.OK;
    }),
    xFullPathname: guard(RC.CANTOPEN, (_vfs: number, zName: number, nOut: number, out: number) => {
      const bytes = Buffer.from(resolve(wasm.cstrToJs(zName)), 'utf8');
      if (bytes.length + 1 > nOut) return RC.CANTOPEN;
      const heap = wasm.heap8u();
      heap.set(bytes, out);
      heap[out + bytes.length] = 0;
      return RC.OK;
    }),
    xRandomness: (_vfs: number, n: number, out: number) => (randomFillSync(wasm.heap8u().subarray(out, out + n)), n),
    xSleep: (_vfs: number, micros: number) => (Atomics.wait(SLEEPER, 0, 0, Math.ceil(micros / 1000)), micros),
    xCurrentTime: (_vfs: number, out: number) => (wasm.poke64f(out, 2440587.5 + Date.now() / 86_400_000), RC.OK),
    // Milliseconds since the Julian epoch: 210866760000000 ms before the Unix one.
    xCurrentTimeInt64: (_vfs: number, out: number) => (
      wasm.poke64(out, 210_866_760_000_000n + BigInt(Date.now())),
      RC.OK
    ),
    xGetLastError: () => 0,
  };
}

const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

function openFile(name: string | undefined, flags: number): { file: VfsFile; outFlags: number } {
  const kind: FileKind = flags & OPEN.MAIN_DB ? 'db' : flags & OPEN.MAIN_JOURNAL ? 'journal' : 'other';
  // SQLite's temporary files (no name) live in the OS temp directory, unlinked at once so nothing is left behind.
  const path = name ?? join(tmpdir(), `prose-sqlite-${process.pid}-${randomBytes(6).toString('hex')}`);
  const temp = name === undefined || (flags & OPEN.DELETEONCLOSE) !== 0;
  let fd: number;
  let created = false;
  let outFlags = flags;
  if (flags & OPEN.READONLY) {
    fd = openSync(path, constants.O_RDONLY);
  } else if (flags & OPEN.CREATE) {
    // The usual case first: a kept journal, an existing database. Creating it tells us to sync the directory.
    const existing = flags & OPEN.EXCLUSIVE ? undefined : openExisting(path);
    if (existing !== undefined) {
      fd = existing;
    } else {
      fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, 0o644);
      created = true;
    }
  } else {
    try {
      fd = openSync(path, constants.O_RDWR);
    } catch (err) {
      // As SQLite's unix VFS: a file we may not write opens read-only, and SQLite answers SQLITE_READONLY on writes.
      if (!['EACCES', 'EPERM', 'EROFS'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
      fd = openSync(path, constants.O_RDONLY);
      outFlags = (flags & ~OPEN.READWRITE) | OPEN.READONLY;
    }
  }
  if (temp) unlinkSync(path);
  // A file we created must not vanish in a power cut once SQLite relies on it (a journal above all).
  return { file: new VfsFile(path, fd, kind, created && !temp), outFlags };
}

function openExisting(path: string): number | undefined {
  try {
    return openSync(path, constants.O_RDWR);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function accessible(path: string, flags: number): boolean {
  if (flags === ACCESS_EXISTS) {
    // As SQLite's unix VFS: an empty regular file does not exist (a journal truncated to nothing is no journal).
    const st = statSync(path, { throwIfNoEntry: false });
    return st !== undefined && (!st.isFile() || st.size > 0);
  }
  try {
    accessSync(path, flags === ACCESS_READWRITE ? constants.R_OK | constants.W_OK : constants.R_OK);
    return true;
  } catch {
    return false;
  }
}
