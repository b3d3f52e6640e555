import { closeSync, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { Database } from '@sqlite.org/sqlite-wasm';
import { ProseError } from '../../../core/errors.ts';
import { writeFileAtomic } from '../../../io/atomic-write.ts';
import { checkDbBytes, isWalHeader } from './db-header.ts';
import { DEFAULT_LOCK_TIMEOUT_MS, withFileLock } from './file-lock.ts';
import { loadSqlite, type Sqlite3Static } from './wasm.ts';

export type { Database };

export interface SqliteFileOptions {
  /** Lock and hot-journal wait, in ms (the CLI's `.timeout`). */
  timeoutMs?: number;
  /** Called on every database loaded from disk, before use; throw to refuse it (a newer schema, say). */
  validate?: (db: Database, file: string) => void;
}

/** Identity of the bytes on disk: a rename (our commit) changes the inode, an in-place write the mtime or size. */
interface Signature { ino: bigint; size: bigint; mtimeNs: bigint }

/**
 * A real SQLite file on disk, worked on through WASM SQLite in memory. Reads reload the file when another process
 * replaced or changed it; every write runs under a cross-process lock file and is exported whole on commit (temp file,
 * fsync, rename, fsync of the directory), so a crash at any point leaves the last committed file, and the real
 * sqlite3 CLI can open the result. This folder knows nothing of OpenProse tables.
 */
export class SqliteFile {
  private db: Database | undefined;
  private sig: Signature | undefined;
  private closed = false;
  /** quick_check runs on the first load only: later reloads are other writers' commits (~7 ms saved per commit). */
  private checked = false;

  private constructor(readonly path: string, private readonly sqlite3: Sqlite3Static, private readonly opts: SqliteFileOptions) {}

  static async open(path: string, opts: SqliteFileOptions = {}): Promise<SqliteFile> {
    return new SqliteFile(path, await loadSqlite(), opts);
  }

  exists(): boolean {
    return existsSync(this.path);
  }

  /** Runs `fn` on the latest committed state. Nothing `fn` changes is kept. */
  async read<T>(fn: (db: Database) => T): Promise<T> {
    const db = await this.refresh(false);
    if (!db) throw new ProseError('E_NOT_FOUND', `${this.path} does not exist`, { location: { file: this.path } });
    const before = db.changes(true, true);
    try {
      return fn(db);
    } catch (err) {
      throw this.corruption(err);
    } finally {
      // A reader must not leave uncommitted edits behind in the cached copy.
      if (!this.sqlite3.capi.sqlite3_get_autocommit(db.pointer!)) db.exec('ROLLBACK');
      if (db.changes(true, true) !== before) this.drop();
    }
  }

  /**
   * Runs `fn` in one transaction under the lock, on the latest state (an empty database when the file does not exist
   * yet), then writes the file. With `transaction: false` `fn` manages its own statements (the sqlite3 shim); an
   * open transaction it leaves behind is rolled back, like the CLI does at exit.
   */
  async write<T>(fn: (db: Database) => T, opts: { transaction?: boolean } = {}): Promise<T> {
    this.assertOpen();
    await this.waitForHotJournal();
    return withFileLock(`${this.path}.lock`, () => {
      // Our lock cannot stop a real sqlite3 process writing the file in place; when it did so while we worked, the
      // work is redone on its result rather than overwriting it (a transaction of ours is a pure function of the db).
      for (let attempt = 1; ; attempt++) {
        const db = this.refreshSync(true)!;
        const tx = opts.transaction !== false;
        const result = this.runIn(db, fn, tx);
        if (!this.changedOnDisk()) {
          this.persist(db);
          if (result.ok) return result.value;
          throw result.error;
        }
        this.drop();
        if (!tx || attempt >= 3) {
          throw new ProseError('E_CONFLICT', `${this.path} was changed by another process (not using the lock) during a write`, {
            location: { file: this.path }, hint: 'a real sqlite3 process is writing this database at the same time; retry',
          });
        }
      }
    }, { timeoutMs: this.opts.timeoutMs });
  }

  /** Runs `fn` in a transaction (or as is); with `transaction: false` statements committed before an error stay. */
  private runIn<T>(db: Database, fn: (db: Database) => T, tx: boolean): { ok: true; value: T } | { ok: false; error: unknown } {
    const autocommit = () => !!this.sqlite3.capi.sqlite3_get_autocommit(db.pointer!);
    try {
      if (tx) db.exec('BEGIN IMMEDIATE');
      const value = fn(db);
      if (tx) db.exec('COMMIT');
      if (!autocommit()) db.exec('ROLLBACK');
      return { ok: true, value };
    } catch (error) {
      if (!autocommit()) db.exec('ROLLBACK');
      if (tx) throw this.corruption(error); // nothing changed: the cached copy equals the disk again
      return { ok: false, error };
    }
  }

  /** SQLITE_CORRUPT or SQLITE_NOTADB met while working is the file's fault, not the caller's: E_CORRUPT. */
  private corruption(err: unknown): unknown {
    const rc = (err as { resultCode?: unknown }).resultCode;
    if (typeof rc !== 'number' || ((rc & 0xff) !== 11 && (rc & 0xff) !== 26)) return err;
    this.drop();
    return new ProseError('E_CORRUPT', `${this.path} is corrupt: ${(err as Error).message}`, {
      location: { file: this.path }, hint: 'restore it from a backup; nothing was written', cause: err,
    });
  }

  private changedOnDisk(): boolean {
    let now: Signature | undefined;
    try { now = signatureOf(statSync(this.path, { bigint: true })); } catch { now = undefined; }
    if (!now || !this.sig) return now !== undefined && this.sig === undefined && now.size > 0n;
    return !sameSig(now, this.sig);
  }

  close(): void {
    this.drop();
    this.closed = true;
  }

  private persist(db: Database): void {
    const bytes = this.sqlite3.capi.sqlite3_js_db_export(db);
    try {
      writeFileAtomic(this.path, bytes);
    } catch (err) {
      this.drop(); // the cached copy is ahead of the disk now: forget it
      throw new ProseError('E_IO', `cannot write ${this.path}: ${(err as Error).message}`, { location: { file: this.path }, cause: err });
    }
    this.sig = signatureOf(statSync(this.path, { bigint: true }));
  }

  private async refresh(create: boolean): Promise<Database | undefined> {
    this.assertOpen();
    await this.waitForHotJournal();
    return this.refreshSync(create);
  }

  /** Reloads from disk when the file changed since we last saw it. */
  private refreshSync(create: boolean): Database | undefined {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw ioError(this.path, err);
      this.drop();
      if (!create) return undefined;
      this.db = new this.sqlite3.oo1.DB(':memory:', 'c');
      return this.db;
    }
    try {
      const sig = signatureOf(fstatSync(fd, { bigint: true }));
      if (this.db && this.sig && sameSig(sig, this.sig)) return this.db;
      let bytes: Uint8Array;
      try {
        bytes = readAll(fd, Number(sig.size));
      } catch (err) {
        throw ioError(this.path, err); // a directory, a device, a vanished mount: not a database we can read
      }
      const db = this.load(bytes);
      this.drop();
      this.db = db;
      this.sig = sig;
      return db;
    } finally {
      closeSync(fd);
    }
  }

  private load(bytes: Uint8Array): Database {
    checkDbBytes(bytes, this.path);
    if (isWalHeader(bytes)) {
      const wal = `${this.path}-wal`;
      if (existsSync(wal) && statSync(wal).size > 0) {
        throw new ProseError('E_FORMAT', `${this.path} is in WAL mode with un-checkpointed changes in ${wal}`, {
          location: { file: this.path }, hint: `run: sqlite3 ${this.path} 'PRAGMA journal_mode=DELETE'`,
        });
      }
      bytes[18] = 1; bytes[19] = 1; // read it as a rollback-journal database; our next commit writes it so
    }
    const { capi, wasm, oo1 } = this.sqlite3;
    const db = new oo1.DB(':memory:', 'c');
    try {
      if (bytes.length > 0) {
        const p = wasm.allocFromTypedArray(bytes);
        const rc = capi.sqlite3_deserialize(db.pointer!, 'main', p, bytes.length, bytes.length,
          capi.SQLITE_DESERIALIZE_FREEONCLOSE | capi.SQLITE_DESERIALIZE_RESIZEABLE);
        if (rc !== 0) throw new Error(`sqlite3_deserialize failed with ${capi.sqlite3_js_rc_str(rc)}`);
        if (!this.checked) {
          const check = db.selectValues('PRAGMA quick_check');
          if (check.length !== 1 || check[0] !== 'ok') throw new Error(`quick_check: ${check.slice(0, 3).join('; ')}`);
        } else {
          db.selectValue('PRAGMA schema_version'); // still reads page 1 and the schema, so a garbled file fails here
        }
      }
    } catch (err) {
      db.close();
      throw new ProseError('E_CORRUPT', `${this.path} is corrupt: ${(err as Error).message}`, {
        location: { file: this.path }, hint: 'restore it from a backup; the file was left untouched', cause: err,
      });
    }
    try {
      this.opts.validate?.(db, this.path);
    } catch (err) {
      db.close();
      throw err;
    }
    this.checked = true;
    return db;
  }

  /** A non-empty `-journal` means a sqlite3 process is mid-write, or crashed mid-write (a hot journal). */
  private async waitForHotJournal(): Promise<void> {
    const journal = `${this.path}-journal`;
    const deadline = Date.now() + (this.opts.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS);
    for (;;) {
      let size = 0;
      try { size = statSync(journal).size; } catch { return; }
      if (size === 0) return;
      if (Date.now() >= deadline) {
        throw new ProseError('E_CORRUPT', `${journal} is a hot journal: a sqlite3 process is writing, or crashed while writing`, {
          location: { file: journal }, hint: `open the database once with the real sqlite3 CLI (sqlite3 ${this.path} 'PRAGMA quick_check') so it rolls back`,
        });
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  private drop(): void {
    this.db?.close();
    this.db = undefined;
    this.sig = undefined;
  }

  private assertOpen(): void {
    if (this.closed) throw new ProseError('E_STATE', `${this.path} was closed`);
  }
}

function readAll(fd: number, size: number): Uint8Array {
  // A plain Uint8Array (not a Buffer view of a shared pool) is what allocFromTypedArray accepts.
  const out = new Uint8Array(size);
  let off = 0;
  while (off < size) {
    const n = readSync(fd, out, off, size - off, off);
    if (n === 0) break;
    off += n;
  }
  return off === size ? out : out.subarray(0, off);
}

const signatureOf = (s: { ino: bigint; size: bigint; mtimeNs: bigint }): Signature => ({ ino: s.ino, size: s.size, mtimeNs: s.mtimeNs });
const sameSig = (a: Signature, b: Signature) => a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
const ioError = (path: string, err: unknown) => new ProseError('E_IO', `cannot read ${path}: ${(err as Error).message}`, { location: { file: path }, cause: err });
