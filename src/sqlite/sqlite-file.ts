import { statSync } from 'node:fs';
import { ProseError } from '../core/errors.ts';
import { checkDbFileHeader, removeIfLeftEmpty, walPending } from './db-header.ts';
import { defaultBusyTimeout, defaultEngine, type SqliteEngine } from './engine.ts';
import { DEFAULT_LOCK_TIMEOUT_MS, withFileLock } from '../io/file-lock.ts';
import { ReaderMark, withSharedLock } from '../io/reader-mark.ts';
import { NativeLock, type LockLevel } from './native-lock.ts';
import { installNodeFsVfs, takeVfsError } from './node-fs-vfs.ts';
import { NativeFile } from './native-file.ts';
import { execute, type Database } from './rows.ts';
import { onSnapshot } from './snapshot.ts';
import type { Access, Incident } from './vfs-file.ts';
import { configureConnection, openConnection, type Connection } from './wasm-connection.ts';
import { loadSqlite, type Sqlite3Static } from './wasm.ts';

export type { Database };

export interface SqliteFileOptions {
  /** Lock wait, in ms (the CLI's `.timeout`); by default 30 s on `wasm`, the busy timeout (10 s) on `native` and `posix`. */
  timeoutMs?: number;
  /** Which locks keep other processes out (engine.ts); by default `defaultEngine()`. */
  engine?: SqliteEngine;
  /** Called on every database opened, and again after another process changed it; throw to refuse it. */
  validate?: (db: Database, file: string) => void;
}

export { JOURNAL_MODE } from './wasm-connection.ts';

/** Why an attempt is tried again instead of answered. */
type Retry = 'busy' | 'recover' | 'redo' | 'snapshot';
type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown } | { retry: Retry };

/**
 * A real SQLite file on disk, worked on in place through WASM SQLite and the node:fs VFS (node-fs-vfs.ts): a commit
 * writes its changed pages and a rollback journal, fdatasync'd, as the native sqlite3 does; a crash at any point is
 * rolled back from the journal by the next opener (us or the CLI). Writers hold `{db}.lock` exclusively and readers
 * hold it shared for the length of their read, so no page is written while another process reads. Each connection
 * stays open between operations; SQLite checks the header's change counter when a transaction starts, so another
 * process's commit drops the stale pages. This folder knows nothing of OpenProse tables.
 */
export class SqliteFile {
  private conn: Connection | undefined;
  private closed = false;
  /** quick_check runs on the first open only: later opens are of files this object already checked or made. */
  private checked = false;
  private readonly lockPath: string;
  private readonly timeoutMs: number;
  /** This object's reader mark beside the lock, kept for its lifetime (reader-mark.ts). */
  private readonly mark: ReaderMark;
  readonly engine: SqliteEngine;
  /** SQLite's own locks on the file (the posix engine). */
  private readonly native: NativeLock | undefined;
  /** The native engine does it all in node:sqlite (native-file.ts); this object only hands it on. */
  private readonly whole: NativeFile | undefined;

  private constructor(
    readonly path: string,
    private readonly sqlite3: Sqlite3Static,
    private readonly opts: SqliteFileOptions,
  ) {
    this.lockPath = `${path}.lock`;
    this.engine = opts.engine ?? defaultEngine();
    this.timeoutMs = opts.timeoutMs ?? (this.engine === 'wasm' ? DEFAULT_LOCK_TIMEOUT_MS : defaultBusyTimeout());
    this.mark = new ReaderMark(this.lockPath);
    this.native = this.engine === 'posix' ? new NativeLock(path) : undefined;
    this.whole = this.engine === 'native' ? new NativeFile(path, this.timeoutMs, opts.validate) : undefined;
  }

  static async open(path: string, opts: SqliteFileOptions = {}): Promise<SqliteFile> {
    // The native engine loads no WASM (its ~50-80 ms init stays unpaid); every call goes to `whole`, which never
    // reaches the WASM module this object is given no instance of.
    if ((opts.engine ?? defaultEngine()) === 'native') return new SqliteFile(path, undefined as never, opts);
    const sqlite3 = await loadSqlite();
    installNodeFsVfs(sqlite3);
    return new SqliteFile(path, sqlite3, opts);
  }

  exists(): boolean {
    return statSync(this.path, { throwIfNoEntry: false }) !== undefined;
  }

  /** Runs `fn` on the latest committed state, under the shared lock. Nothing `fn` changes is kept. */
  async read<T>(fn: (db: Database) => T): Promise<T> {
    this.assertOpen();
    if (this.whole) return this.whole.read(fn);
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      const out = await withSharedLock(
        this.lockPath,
        () =>
          this.nativeLocked('shared', () => {
            const o = this.attempt('read', (c) => fn(c.db));
            // A read that changes rows (SQLite asked for a write lock) runs again on a private copy, still under the lock.
            return 'retry' in o && o.retry === 'snapshot'
              ? this.outcome(() => onSnapshot(this.sqlite3, this.path, fn))
              : o;
          }),
        { timeoutMs: this.timeoutMs, mark: this.mark },
      );
      if (!('retry' in out)) return answer(out);
      await this.wait(out.retry, deadline);
    }
  }

  /**
   * Runs `fn` in one transaction under the exclusive lock, on the latest state (a new empty database when the file
   * does not exist yet), and commits it to disk. With `transaction: false` `fn` manages its own statements (the
   * sqlite3 shim); an open transaction it leaves behind is rolled back, like the CLI does at exit.
   */
  async write<T>(fn: (db: Database) => T, opts: { transaction?: boolean } = {}): Promise<T> {
    this.assertOpen();
    if (this.whole) return this.whole.write(fn, opts);
    const tx = opts.transaction !== false;
    const deadline = Date.now() + this.timeoutMs;
    for (let redo = 0; ;) {
      const out = await withFileLock(
        this.lockPath,
        () => {
          const existed = this.exists(); // before the native lock, whose connection creates a missing file
          return this.nativeLocked('exclusive', () => this.attemptWrite(fn, tx, existed));
        },
        { timeoutMs: this.timeoutMs },
      );
      if (!('retry' in out)) return answer(out);
      if (out.retry !== 'redo') {
        await this.wait(out.retry, deadline);
        continue;
      }
      // A real sqlite3 (which ignores our lock) committed while we worked, or rolled our commit back: redo on what the
      // file holds now (fn is pure in a tx), on a new connection, since this one's cache holds pages of ours.
      this.drop();
      if (!tx || ++redo >= 3) {
        throw new ProseError(
          'E_CONFLICT',
          `${this.path} was changed by another process (not using the lock) during a write`,
          {
            location: { file: this.path },
            hint: 'a real sqlite3 process is writing this database at the same time; retry',
          },
        );
      }
    }
  }

  close(): void {
    this.drop();
    this.native?.close();
    this.whole?.close();
    this.mark.close();
    this.closed = true;
  }

  /**
   * On the posix engine, `body` runs holding SQLite's own lock on the file (native-lock.ts), taken without waiting:
   * `busy` comes back as a retry, so the caller's loop waits (asynchronously) up to the busy timeout. A missing file
   * is left to `body` (a read answers E_NOT_FOUND; a write creates it, the native connection first). A WAL database
   * is checkpointed before a read (as the CLI does when it closes it), and also turned to rollback-journal mode before
   * a write, as only that mode is written here.
   */
  private nativeLocked<T>(level: LockLevel, body: () => Outcome<T>): Outcome<T> {
    const lock = this.native;
    if (!lock) return body();
    if (!this.exists() && level === 'shared') return body();
    try {
      for (let checkpointed = false; ;) {
        let taken;
        try {
          taken = lock.take(level);
        } catch (err) {
          if (this.exists()) checkDbFileHeader(this.path); // our own message for a file that is not SQLite
          throw err;
        }
        if (taken === 'busy') return { retry: 'busy' };
        // The header is read under the lock: between a sqlite3's page writes it may say more pages than there are yet.
        if (checkpointed || !this.exists() || !checkDbFileHeader(this.path).wal) break;
        lock.release();
        this.drop(); // the WASM connection read it as a rollback-journal file; it must see the new header
        if ((level === 'exclusive' ? lock.leaveWal() : lock.checkpoint()) === 'busy') return { retry: 'busy' };
        checkpointed = level === 'shared'; // a read leaves the file WAL, its -wal now empty (the VFS refuses new frames)
      }
    } catch (err) {
      lock.release();
      return { ok: false, error: err };
    }
    try {
      return body();
    } finally {
      lock.release();
    }
  }

  private attemptWrite<T>(fn: (db: Database) => T, tx: boolean, existed: boolean): Outcome<T> {
    // Without a transaction (the shim) statements may have committed: what fn answered stands, incidents and all.
    const out = this.attempt(
      'write',
      (c) => {
        if (!tx) return fn(c.db);
        execute(c.db, 'BEGIN IMMEDIATE');
        const value = fn(c.db);
        execute(c.db, 'COMMIT');
        return value;
      },
      tx,
    );
    // A database this write created and left empty (its first transaction failed) is not left behind.
    if (!existed && !('ok' in out && out.ok)) {
      this.drop();
      removeIfLeftEmpty(this.path);
    }
    return out;
  }

  /** One try of `body` on the connection with `access`; what the VFS ran into decides whether it is tried again. */
  private attempt<T>(access: Access, body: (c: Connection) => T, retryAnswered = true): Outcome<T> {
    try {
      const c = this.connect(access);
      const value = body(c);
      // A commit a real sqlite3 rolled back (it took our live journal for a dead writer's) is redone, never acknowledged.
      if (access === 'write' && !c.main.commitStands()) return { retry: 'redo' };
      const again = retryAnswered && this.conn && retryOf(this.conn.main.incident);
      return again ? { retry: again } : { ok: true, value };
    } catch (err) {
      const incident = this.conn?.main.incident;
      if (incident?.walPending) return { ok: false, error: walPending(this.path) };
      const again = incident && retryOf(incident);
      return again ? { retry: again } : { ok: false, error: this.corruption(err) };
    } finally {
      this.settle();
    }
  }

  private outcome<T>(fn: () => T): Outcome<T> {
    try {
      return { ok: true, value: fn() };
    } catch (err) {
      return { ok: false, error: this.corruption(err) };
    }
  }

  /** Waits out what made an attempt fail: a native sqlite3's lock, or a hot journal to roll back under our lock. */
  private async wait(why: Retry, deadline: number): Promise<void> {
    if (Date.now() >= deadline) {
      throw new ProseError(
        'E_CONFLICT',
        `database is locked: ${this.path} was still locked by another process after the busy timeout (${this.timeoutMs} ms)`,
        {
          location: { file: this.path },
          hint:
            'a sqlite3 process is writing (or reading) this database; retry when it is done' +
            (this.native ? ', or wait longer (PROSE_STATE_BUSY_TIMEOUT_MS)' : ''),
        },
      );
    }
    if (why !== 'recover') {
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 15));
      return;
    }
    // Reading SQLite's first page under the exclusive lock makes it roll the hot journal back.
    const out = await withFileLock(
      this.lockPath,
      () => this.attempt('write', (c) => c.db.selectValue('PRAGMA schema_version')),
      { timeoutMs: this.timeoutMs },
    );
    if ('ok' in out && !out.ok) throw out.error;
  }

  /** The open connection (reopened when the file was replaced or removed), allowed `access` for this attempt. */
  private connect(access: Access): Connection {
    const st = statSync(this.path, { bigint: true, throwIfNoEntry: false });
    if (this.conn && (!st || st.ino !== this.conn.ino)) this.drop();
    if (!st && access !== 'write')
      throw new ProseError('E_NOT_FOUND', `${this.path} does not exist`, { location: { file: this.path } });
    this.conn ??= openConnection(this.sqlite3, this.path, st !== undefined);
    const c = this.conn;
    c.main.nativeLocks = this.native !== undefined;
    c.main.access = access;
    c.main.incident = {};
    if (!c.verified) this.verify(c, st === undefined || st.size === 0n);
    else if (c.main.diskCounter() !== c.counter) this.validate(c); // another process committed since our last look
    return c;
  }

  /** Settings of a new connection, then (once per object) quick_check, then the caller's validation. */
  private verify(c: Connection, empty: boolean): void {
    try {
      configureConnection(c, empty, !this.checked);
    } catch (err) {
      if (retryOf(c.main.incident) || c.main.incident.walPending) throw err;
      this.drop();
      throw new ProseError('E_CORRUPT', `${this.path} is corrupt: ${(err as Error).message}`, {
        location: { file: this.path },
        hint: 'restore it from a backup; the file was left untouched',
        cause: err,
      });
    }
    this.validate(c);
    this.checked = true;
    c.verified = true;
  }

  /** The caller's check (a schema version we read); a file it refuses is closed, so every later use checks again. */
  private validate(c: Connection): void {
    try {
      this.opts.validate?.(c.db, this.path);
    } catch (err) {
      this.drop();
      throw err;
    }
  }

  /** Ends whatever the attempt left open, so the connection holds no lock between operations. */
  private settle(): void {
    const c = this.conn;
    if (!c) return;
    if (!this.sqlite3.capi.sqlite3_get_autocommit(c.db.pointer!)) {
      try {
        c.db.exec('ROLLBACK');
      } catch {
        /* the pager already rolled back after an I/O error */
      }
    }
    c.main.access = 'none';
    c.counter = c.main.diskCounter();
  }

  /** SQLITE_CORRUPT or SQLITE_NOTADB met while working is the file's fault, not the caller's: E_CORRUPT. */
  private corruption(err: unknown): unknown {
    const rc = (err as { resultCode?: unknown }).resultCode;
    if (typeof rc !== 'number') return err;
    if ((rc & 0xff) === 10) {
      this.drop(); // the pager may hold pages it could not write: start the next attempt from the file
      const cause = takeVfsError() ?? err;
      return new ProseError('E_IO', `I/O error on ${this.path}: ${(cause as Error).message}`, {
        location: { file: this.path },
        cause,
      });
    }
    if ((rc & 0xff) !== 11 && (rc & 0xff) !== 26) return err;
    this.drop();
    return new ProseError('E_CORRUPT', `${this.path} is corrupt: ${(err as Error).message}`, {
      location: { file: this.path },
      hint: 'restore it from a backup; nothing was written',
      cause: err,
    });
  }

  private drop(): void {
    this.conn?.db.close();
    this.conn = undefined;
  }

  private assertOpen(): void {
    if (this.closed) throw new ProseError('E_STATE', `${this.path} was closed`);
  }
}

function retryOf(i: Incident): Retry | undefined {
  if (i.foreignCommit) return 'redo';
  if (i.denied === 'rollback') return 'recover';
  if (i.denied === 'write') return 'snapshot';
  return i.busy ? 'busy' : undefined;
}

function answer<T>(out: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (out.ok) return out.value;
  throw out.error;
}
