import { closeSync, statSync } from 'node:fs';
import { ProseError } from '../core/errors.ts';

/**
 * SQLite's own POSIX advisory locks on a database file, the ones the real `sqlite3` CLI takes and honours, taken
 * through a `node:sqlite` connection (Node 22.5+; SQLite's unix VFS in C) that never writes: SHARED by reading the
 * schema in a transaction, EXCLUSIVE by `BEGIN EXCLUSIVE`. While it holds one, the WASM engine reads or writes the
 * pages under it, so a `sqlite3` process waits for our commit as it waits for another `sqlite3`'s, and ours wait for
 * it. Taking SHARED also rolls back a hot journal a crashed writer (ours or the CLI's) left: the native pager does
 * that, knowing who is alive from the real locks.
 */
interface NativeDb {
  exec(sql: string): void;
  prepare(sql: string): { get(): unknown };
  close(): void;
  readonly isTransaction: boolean;
}
interface NativeModule {
  DatabaseSync: new (path: string, opts?: { timeout?: number; enableForeignKeyConstraints?: boolean }) => NativeDb;
}

let native: NativeModule | null | undefined;

/** node:sqlite, or null where this Node has none (Node 20, or 22 before 22.13 without --experimental-sqlite). */
export function nativeSqlite(): NativeModule | null {
  if (native === undefined) {
    try {
      native = (process.getBuiltinModule?.('node:sqlite') as NativeModule | undefined) ?? null;
    } catch {
      native = null;
    }
  }
  return native;
}

export type LockLevel = 'shared' | 'exclusive';
/** A lock taken, or `busy`: another process holds one that excludes it (try again until the busy timeout). */
export type Taken = 'ok' | 'busy';

/**
 * Locks held by this process right now. Closing ANY descriptor of a file drops every POSIX lock the process holds on
 * it (fcntl semantics), so while one is held our own descriptors of a database are closed later (`closeDbFd`).
 */
let held = 0;
const closeLater: number[] = [];

export class NativeLock {
  private db: NativeDb | undefined;
  /** The inode the connection has open: a file replaced since (another inode) is opened again. */
  private ino: bigint | undefined;
  private level: LockLevel | undefined;
  /** The database was in WAL mode when last locked: the connection then holds SHARED for as long as it is open. */
  private wal = false;

  constructor(readonly path: string) {}

  /** Takes `level` without waiting: SQLite's busy handler would block the event loop, so the caller polls. */
  take(level: LockLevel): Taken {
    if (this.level) throw new ProseError('E_STATE', `${this.path}: native lock taken twice`);
    if (this.db && statSync(this.path, { bigint: true, throwIfNoEntry: false })?.ino !== this.ino) this.drop();
    const db = this.connection();
    try {
      if (level === 'exclusive') {
        db.exec('BEGIN EXCLUSIVE');
      } else {
        db.exec('BEGIN');
        db.prepare('SELECT count(*) FROM sqlite_schema').get(); // the first read takes SHARED (and recovers a hot journal)
      }
    } catch (err) {
      if (db.isTransaction)
        try {
          db.exec('ROLLBACK');
        } catch {
          /* nothing held */
        }
      if (isBusy(err)) return 'busy';
      throw nativeError(err, this.path);
    }
    this.level = level;
    held++;
    this.wal = walMode(db);
    return 'ok';
  }

  /** Gives the lock back (nothing was written through this connection), then closes what waited for it. */
  release(): void {
    if (!this.level) return;
    this.level = undefined;
    try {
      this.db!.exec('ROLLBACK');
      // A WAL connection keeps SHARED on the file while it is open, even idle, and the next close of a descriptor of
      // ours would drop it unseen: a sqlite3 closing then takes itself for the last connection and checkpoints and
      // deletes the -wal regardless of ours (its last commit was lost so in 3 of ~125 runs under load). Closed instead.
      if (this.wal) this.drop();
    } catch {
      this.drop(); // closing the connection is what surely unlocks
    } finally {
      if (--held === 0) for (const fd of closeLater.splice(0)) closeSync(fd);
    }
  }

  /**
   * A WAL database becomes a rollback-journal one (the only kind the WASM engine writes): SQLite checkpoints every
   * frame of the -wal into the file first, as the CLI does when it leaves WAL mode. Busy while others have it open.
   */
  leaveWal(): Taken {
    try {
      this.connection().exec('PRAGMA journal_mode = DELETE');
      return 'ok';
    } catch (err) {
      this.drop(); // still WAL: not left open idle (see `release`)
      if (isBusy(err)) return 'busy';
      throw nativeError(err, this.path);
    }
  }

  /** The -wal's frames copied into the file and the -wal emptied, as the CLI does when it closes: a read can then see them. */
  checkpoint(): Taken {
    try {
      const row = this.connection().prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy?: number } | undefined;
      return row?.busy ? 'busy' : 'ok';
    } catch (err) {
      if (isBusy(err)) return 'busy';
      throw nativeError(err, this.path);
    } finally {
      this.drop(); // still WAL: not left open idle (see `release`)
    }
  }

  close(): void {
    this.release();
    this.drop();
  }

  private connection(): NativeDb {
    const mod = nativeSqlite();
    if (!mod)
      throw new ProseError(
        'E_UNSUPPORTED',
        `native SQLite locks need node:sqlite (Node 22.13+), not Node ${process.versions.node}`,
      );
    if (!this.db) {
      this.db = new mod.DatabaseSync(this.path, { timeout: 0 }); // creates an empty file if there is none
      this.ino = statSync(this.path, { bigint: true }).ino;
    }
    return this.db;
  }

  private drop(): void {
    try {
      this.db?.close();
    } catch {
      /* already closed */
    }
    this.db = undefined;
  }
}

/** Closes a descriptor of a database file now, or once this process holds no native lock (see `held`). */
export function closeDbFd(fd: number): void {
  if (held > 0) closeLater.push(fd);
  else closeSync(fd);
}

/** Whether the connection's database is in WAL mode (asked inside a transaction: no lock of its own). */
function walMode(db: NativeDb): boolean {
  const row = db.prepare('PRAGMA journal_mode').get() as { journal_mode?: string } | undefined;
  return row?.journal_mode === 'wal';
}

/** SQLITE_BUSY or SQLITE_LOCKED (primary codes 5 and 6). */
export function isBusy(err: unknown): boolean {
  const code = (err as { errcode?: unknown }).errcode;
  return typeof code === 'number' && ((code & 0xff) === 5 || (code & 0xff) === 6);
}

export function nativeError(err: unknown, path: string): ProseError {
  const code = (err as { errcode?: unknown }).errcode;
  const primary = typeof code === 'number' ? code & 0xff : -1;
  const message = (err as Error).message;
  if (primary === 11 || primary === 26) {
    return new ProseError('E_CORRUPT', `${path} is corrupt: ${message}`, {
      location: { file: path },
      hint: 'restore it from a backup; the file was left untouched',
      cause: err,
    });
  }
  const what = primary === 10 ? 'I/O error on' : 'cannot lock';
  return new ProseError('E_IO', `${what} ${path}: ${message}`, { location: { file: path }, cause: err });
}
