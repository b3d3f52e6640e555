import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { syncDir } from '../io/atomic-write.ts';
import { closeDbFd } from './native-lock.ts';
import { foreignLocks, type ForeignLocks } from './posix-locks.ts';

/** SQLite result codes the VFS answers (sqlite3.h; stable across versions). */
export const RC = {
  OK: 0,
  BUSY: 5,
  IOERR: 10,
  NOTFOUND: 12,
  CANTOPEN: 14,
  IOERR_READ: 266,
  IOERR_SHORT_READ: 522,
  IOERR_WRITE: 778,
  IOERR_FSYNC: 1034,
  IOERR_TRUNCATE: 1546,
  IOERR_FSTAT: 1802,
  IOERR_DELETE: 2570,
  IOERR_DELETE_NOENT: 5898,
} as const;

const SHARED = 1;
const RESERVED = 2;
/** How long a commit waits, blocking, for native sqlite3 readers to finish before it writes pages in place. */
const NATIVE_READER_WAIT_MS = 2000;
/** sqlite3.h file-control op: the size the database is about to grow to (sent before a commit writes pages). */
export const FCNTL_SIZE_HINT = 5;
/** A database grows by an eighth of its size, at least 64 KiB and at most 1 MiB at a time (see `reserve`). */
const GROWTH_STEP = 64 * 1024;
const GROWTH_MAX = 1024 * 1024;

/**
 * What the owning SqliteFile allows on its main database right now. `unmanaged` is a file opened by someone else
 * (an ATTACHed database): locking is then SQLite's business alone, as with any lock-free VFS.
 */
export type Access = 'unmanaged' | 'none' | 'read' | 'write';

/** What the VFS refused or noticed during one operation, for SqliteFile to act on (retry, recover, redo). */
export interface Incident {
  /** A lock beyond what the access allows: a write inside a read, or a hot-journal rollback under a shared lock. */
  denied?: 'write' | 'rollback';
  /** A native sqlite3 process holds a lock that excludes ours. */
  busy?: 'native-writer' | 'native-reader';
  /** Another process committed between the start of our transaction and its first page write. */
  foreignCommit?: boolean;
  /** The file is a WAL database whose -wal file holds frames we cannot read. */
  walPending?: boolean;
}

export type FileKind = 'db' | 'journal' | 'other';

/**
 * One file SQLite opened through the node:fs VFS. Reads and writes go straight to the file descriptor; xSync is
 * fdatasync, as SQLite's own unix VFS does on Linux, plus an fsync of the directory after a file was created (so
 * a new journal cannot vanish in a power cut while the pages it protects are being overwritten).
 */
export class VfsFile {
  level = 0;
  access: Access = 'unmanaged';
  /**
   * The owning SqliteFile holds SQLite's own POSIX lock for the access (native-lock.ts), so a native sqlite3 is
   * already excluded: no /proc/locks reading, no waiting here, and a hot journal was rolled back natively before.
   */
  nativeLocks = false;
  incident: Incident = {};
  /** The header's change counter when this connection's current lock began; undefined for an empty file. */
  private counterAtLock: number | undefined;
  private wroteSinceLock = false;
  /** The change counter our last write of page 1 put in the header (each commit writes it). */
  private counterWritten: number | undefined;
  private nativeSeen: ForeignLocks | undefined;
  private readonly ident: { dev: bigint; ino: bigint } | undefined;
  /** The file's size as far as this handle last saw it (it grows ahead of the database: `reserve`). */
  private allocated: number;

  constructor(
    readonly path: string,
    readonly fd: number,
    readonly kind: FileKind,
    private dirSyncPending: boolean,
  ) {
    const st = fstatSync(fd, { bigint: true });
    this.ident = kind === 'db' ? st : undefined;
    this.allocated = Number(st.size);
  }

  get ino(): bigint | undefined {
    return this.ident?.ino;
  }

  read(heap: Uint8Array, p: number, n: number, offset: number): number {
    let got = 0;
    while (got < n) {
      const k = readSync(this.fd, heap, p + got, n - got, offset + got);
      if (k === 0) break;
      got += k;
    }
    if (
      this.kind === 'db' &&
      offset <= 18 &&
      offset + got >= 20 &&
      heap[p + 18 - offset] === 2 &&
      heap[p + 19 - offset] === 2
    ) {
      // A WAL database: read as a rollback-journal one (our commit writes it so) unless its -wal holds frames.
      if (walHasFrames(this.path)) {
        this.incident.walPending = true;
        return RC.IOERR_READ;
      }
      heap[p + 18 - offset] = 1;
      heap[p + 19 - offset] = 1;
    }
    if (got < n) {
      heap.fill(0, p + got, p + n);
      return RC.IOERR_SHORT_READ;
    }
    return RC.OK;
  }

  write(heap: Uint8Array, p: number, n: number, offset: number): number {
    const refused = this.mayWrite();
    if (refused !== RC.OK) return refused;
    let put = 0;
    while (put < n) put += writeSync(this.fd, heap, p + put, n - put, offset + put);
    if (offset + n > this.allocated) this.allocated = offset + n;
    if (this.kind === 'db' && offset === 0 && n >= 28)
      this.counterWritten = Buffer.from(heap.buffer, heap.byteOffset + p + 24, 4).readUInt32BE(0);
    return RC.OK;
  }

  /**
   * After a commit: whether its pages are still what the file holds. A real sqlite3 that opened the file while our
   * journal was live (it cannot see our lock) takes it for a crashed writer's and rolls our commit back. Such a
   * rollback is waited out (it holds a native EXCLUSIVE lock), then the header's change counter says who won.
   */
  commitStands(): boolean {
    if (this.kind !== 'db' || this.counterWritten === undefined) return true;
    if (this.nativeLocks) return readCounter(this.fd) === this.counterWritten;
    const until = Date.now() + NATIVE_READER_WAIT_MS;
    while (this.native(true).writing && Date.now() < until) Atomics.wait(SLEEPER, 0, 0, 2);
    return readCounter(this.fd) === this.counterWritten;
  }

  /** Whether the database may be changed now: only in a write, and only if nobody committed since our lock began. */
  private mayWrite(): number {
    if (this.kind !== 'db' || this.access === 'unmanaged') return RC.OK;
    if (this.access !== 'write') return RC.IOERR_WRITE; // never in place outside a write, whatever SQLite asks
    if (!this.wroteSinceLock) {
      this.wroteSinceLock = true;
      if (readCounter(this.fd) !== this.counterAtLock) return this.abandon();
    }
    return RC.OK;
  }

  /**
   * SQLite's size hint before a commit writes pages past the end: the file grows ahead, in steps of an eighth of its
   * size (64 KiB to 1 MiB), with real zero bytes, as SQLite's unix VFS does with a chunk size. A commit that stays
   * inside the space then overwrites blocks the file already has, so its fdatasync flushes data without a file-system
   * journal commit for the new size and blocks (on ext4 that was most of a small commit's cost). SQLite reads the
   * database size from the header, so the zero pages past it are free space on disk, not pages.
   */
  reserve(size: number): number {
    if (this.kind !== 'db' || size <= this.allocated) return RC.OK;
    // Another process may have grown the file since: zeros go only past its real end, never over its pages.
    this.allocated = this.size();
    if (size <= this.allocated) return RC.OK;
    const refused = this.mayWrite();
    if (refused !== RC.OK) return refused;
    const step = Math.min(GROWTH_MAX, Math.max(GROWTH_STEP, this.allocated / 8));
    const target = roundUp(Math.max(size, this.allocated + step), GROWTH_STEP);
    for (let at = this.allocated; at < target; at += ZEROS.length) {
      writeSync(this.fd, ZEROS, 0, Math.min(ZEROS.length, target - at), at);
    }
    this.allocated = target;
    return RC.OK;
  }

  /**
   * A process that ignores our lock (a real sqlite3) committed while our transaction ran: our pages were read before
   * its commit, so none may be written. The journal holds those stale pages too; it is emptied (durably) so nobody
   * plays it back over the other commit, and the write fails: the pager drops its cache and SqliteFile redoes the work.
   */
  private abandon(): number {
    this.incident.foreignCommit = true;
    try {
      const fd = openSync(`${this.path}-journal`, 'r+');
      try {
        ftruncateSync(fd, 0);
        fdatasyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch {
      /* no journal (a new database): nothing to disarm */
    }
    return RC.IOERR_WRITE;
  }

  truncate(size: number): number {
    if (this.kind === 'db' && this.access !== 'unmanaged' && this.access !== 'write') return RC.IOERR_TRUNCATE;
    // A database keeps the space it reserved (SQLite's unix VFS rounds up to its chunk size the same way).
    const to = this.kind === 'db' ? roundUp(size, GROWTH_STEP) : size;
    if (this.kind !== 'db' || to < this.size()) ftruncateSync(this.fd, to);
    this.allocated = Math.min(this.allocated, to);
    return RC.OK;
  }

  sync(): number {
    fdatasyncSync(this.fd);
    if (this.dirSyncPending) {
      syncDir(dirname(this.path));
      this.dirSyncPending = false;
    }
    return RC.OK;
  }

  size(): number {
    return fstatSync(this.fd).size;
  }

  lock(level: number): number {
    if (level <= this.level) return RC.OK;
    if (this.kind !== 'db' || this.access === 'unmanaged') {
      this.level = level;
      return RC.OK;
    }
    if (this.level === 0) this.nativeSeen = undefined; // a new lock period looks again
    const refused = this.refusal(level);
    if (refused !== undefined) return refused;
    if (this.level === 0) {
      this.counterAtLock = readCounter(this.fd);
      this.wroteSinceLock = false;
      this.counterWritten = undefined;
    }
    this.level = level;
    return RC.OK;
  }

  /** Why `level` cannot be had now, as SQLITE_BUSY with the incident noted; undefined when it can. */
  private refusal(level: number): number | undefined {
    const busy = (why: Incident['busy']) => ((this.incident.busy = why), RC.BUSY);
    if (level === SHARED) {
      if (this.access === 'none') return RC.BUSY; // SQL outside an operation of the owning SqliteFile
      return !this.nativeLocks && this.native().writing ? busy('native-writer') : undefined;
    }
    if (this.access !== 'write') {
      // From SHARED straight to EXCLUSIVE is SQLite rolling back a hot journal; through RESERVED it is a write.
      this.incident.denied = level > RESERVED && this.level === SHARED ? 'rollback' : 'write';
      return RC.BUSY;
    }
    if (this.nativeLocks) return undefined; // the native EXCLUSIVE lock is held: no sqlite3 reads or writes now
    if (level === RESERVED) {
      const n = this.native();
      return n.reserved || n.writing ? busy('native-writer') : undefined;
    }
    // EXCLUSIVE: pages are about to be written in place; a native reader would see them torn, so let it finish.
    const until = Date.now() + NATIVE_READER_WAIT_MS;
    while (this.native(true).reading) {
      if (Date.now() >= until) return busy('native-reader');
      Atomics.wait(SLEEPER, 0, 0, 2);
    }
    return undefined;
  }

  unlock(level: number): number {
    this.level = level;
    if (level === 0) this.counterAtLock = undefined;
    return RC.OK;
  }

  /** A hot journal may be rolled back unless a native sqlite3 writer (RESERVED) is alive: ours run one at a time. */
  checkReservedLock(): boolean {
    // Under native locks a hot journal was already rolled back when the lock was taken; a journal seen in a read
    // is a live sqlite3 writer's (it holds RESERVED, which our SHARED lets it), never to be played back.
    if (this.nativeLocks) return this.kind === 'db' && this.access !== 'write';
    return this.kind === 'db' && this.native().reserved;
  }

  close(): void {
    // Closing a descriptor of the database drops the process's POSIX locks on it: not while one is held.
    if (this.kind === 'db') closeDbFd(this.fd);
    else closeSync(this.fd);
  }

  /** The change counter on disk now (header bytes 24..27). */
  diskCounter(): number | undefined {
    return readCounter(this.fd);
  }

  /** Native locks, read once per lock period (a /proc/locks read each); EXCLUSIVE always looks again. */
  private native(fresh = false): ForeignLocks {
    if (fresh || this.nativeSeen === undefined) this.nativeSeen = foreignLocks(this.ident!.dev, this.ident!.ino);
    return this.nativeSeen;
  }
}

const SLEEPER = new Int32Array(new SharedArrayBuffer(4));
const counterBuf = Buffer.alloc(4);
const ZEROS = new Uint8Array(GROWTH_STEP);
const roundUp = (n: number, step: number) => Math.ceil(n / step) * step;

function readCounter(fd: number): number | undefined {
  return readSync(fd, counterBuf, 0, 4, 24) === 4 ? counterBuf.readUInt32BE(0) : undefined;
}

function walHasFrames(db: string): boolean {
  try {
    return statSync(`${db}-wal`).size > 0;
  } catch {
    return false;
  }
}
