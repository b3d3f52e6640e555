import { statSync } from 'node:fs';
import { ProseError } from '../core/errors.ts';
import { checkDbFileHeader, removeIfLeftEmpty } from './db-header.ts';
import { NativeDatabase, type NativeConnection } from './native-db.ts';
import { isBusy, nativeError, nativeSqlite } from './native-lock.ts';
import type { Database } from './rows.ts';

/** The same settings as the WASM engine's connections (sqlite-journal in the decisions table). */
const SETTINGS = ['PRAGMA journal_size_limit = 1048576', 'PRAGMA synchronous = FULL'];
const NEW_PAGE_SIZE = 4096;
const JOURNAL_MODE = 'persist';
/**
 * A write waits with sqliteDefaultBusyCallback's pauses (the CLI's `.timeout`), the last one repeated: polling faster
 * than the `sqlite3` writers beside us starved one past its 10 s in the mixed-writers area (`database is locked`).
 */
const BUSY_PAUSES_MS = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100];
/**
 * A read tries every few ms: under back-to-back commits the file is free only between them, and at 100 ms a reader
 * got in a handful of times in 600 commits. Readers cannot starve writers: a COMMIT waiting holds PENDING.
 */
const READ_PAUSES_MS = [1, 2, 5];
/**
 * While other processes write the file too, each write waits a random part of this after this object's previous
 * commit: SQLite's busy handler sleeps up to 100 ms between tries, so a process that tries again at once after its
 * own commit takes the lock again before a waiter wakes, commit after commit (`sqlite3` writers and readers were
 * locked out past their 10 s in the mixed-writers area). A waiting `sqlite3` holds no lock and cannot be seen, so
 * "others write" is: another process committed (PRAGMA data_version moved), or held the lock, within OTHERS_MS.
 * Never paid by a lone writer (the bench, the crash area).
 */
const YIELD_MS = 100;
const OTHERS_MS = 1000;

interface Conn {
  db: NativeDatabase;
  ino: bigint;
  /** PRAGMA data_version when this connection last looked: another process's commit changes it. */
  dataVersion: number | undefined;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown } | { busy: true };

/**
 * The native engine: SQL, pages, journal and locks all in node:sqlite (SQLite in C, its unix VFS), as the `sqlite3`
 * CLI does them. Every operation is one transaction, its locks taken without blocking (a blocking busy handler would
 * stop the event loop): SQLITE_BUSY is tried again, asynchronously, after the pauses SQLite's own busy handler makes,
 * up to the busy timeout, then E_CONFLICT, as on the posix engine. A write takes RESERVED (BEGIN IMMEDIATE) and its
 * COMMIT waits for readers holding PENDING, as the CLI's does. A read runs in a transaction that is always rolled
 * back, so a read that changes rows keeps nothing. No lock file: a `wasm` process of ours beside it sees it only as it
 * sees a `sqlite3` (docs/sqlite.md, Limits).
 */
export class NativeFile {
  private conn: Conn | undefined;
  /** quick_check runs on the first open only, as on the WASM engines. */
  private checked = false;
  private tail: Promise<unknown> = Promise.resolve();
  /** When another process was last seen writing (see YIELD_MS), and when this object last committed. */
  private othersSeenAt = -Infinity;
  private committedAt = -Infinity;

  constructor(
    readonly path: string,
    private readonly timeoutMs: number,
    private readonly validate: ((db: Database, file: string) => void) | undefined,
  ) {}

  async read<T>(fn: (db: Database) => T): Promise<T> {
    return this.queued(() => this.retried(() => this.attempt(false, fn), READ_PAUSES_MS));
  }

  async write<T>(fn: (db: Database) => T, opts: { transaction?: boolean } = {}): Promise<T> {
    if (opts.transaction === false) {
      // Only the sqlite3 shim runs its own BEGIN/COMMIT; it runs on WASM SQLite for the CLI's exact errors.
      throw new ProseError('E_UNSUPPORTED', `${this.path}: a write without a transaction needs a WASM engine`, {
        hint: 'open the file on the posix or wasm engine',
      });
    }
    return this.queued(async () => {
      await this.yieldTurn();
      const started = Date.now();
      const existed = statSync(this.path, { throwIfNoEntry: false }) !== undefined;
      try {
        const value = await this.retried(() => this.attempt(true, fn), BUSY_PAUSES_MS, started);
        await this.commit(started);
        this.committedAt = Date.now();
        return value;
      } catch (err) {
        // A database this write created and left empty (its first transaction failed) is not left behind.
        if (!existed) {
          this.drop();
          removeIfLeftEmpty(this.path);
        }
        throw err;
      }
    });
  }

  close(): void {
    this.drop();
  }

  /** One operation at a time per object: a write's transaction stays open while its COMMIT waits for readers. */
  private queued<T>(op: () => Promise<T>): Promise<T> {
    const run = this.tail.then(op);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /**
   * COMMIT needs the EXCLUSIVE lock, so it waits for readers: SQLite keeps the transaction open and PENDING held
   * (no new reader gets in) and the COMMIT is tried again, as the CLI's busy handler does; a steady stream of readers
   * cannot starve the writer. Past the busy timeout the transaction is rolled back.
   */
  private async commit(started: number): Promise<void> {
    const out = await this.retried(
      () => {
        try {
          this.conn!.db.script('COMMIT');
          return { ok: true, value: undefined };
        } catch (err) {
          if (isBusy(err) && this.conn?.db.raw.isTransaction) return { busy: true };
          this.rollback();
          return { ok: false, error: this.failure(err) };
        }
      },
      BUSY_PAUSES_MS,
      started,
    ).catch((err: unknown) => {
      this.rollback();
      throw err;
    });
    return out;
  }

  /** The pause of YIELD_MS, while others write. */
  private async yieldTurn(): Promise<void> {
    const now = Date.now();
    if (now - this.othersSeenAt > OTHERS_MS) return;
    const pause = YIELD_MS * Math.random() - (now - this.committedAt);
    if (pause > 0) await new Promise((r) => setTimeout(r, pause));
  }

  /** Tries again on SQLITE_BUSY after `pauses` (the last one repeated), never past the busy timeout. */
  private async retried<T>(attempt: () => Outcome<T>, pauses: readonly number[], started = Date.now()): Promise<T> {
    for (let tries = 0; ; tries++) {
      const out = attempt();
      if (!('busy' in out)) {
        if (out.ok) return out.value;
        throw out.error;
      }
      this.othersSeenAt = Date.now();
      const waited = Date.now() - started;
      const pause = Math.min(pauses[Math.min(tries, pauses.length - 1)]!, this.timeoutMs - waited);
      if (pause <= 0) {
        throw new ProseError(
          'E_CONFLICT',
          `database is locked: ${this.path} was still locked by another process after the busy timeout (${this.timeoutMs} ms)`,
          {
            location: { file: this.path },
            hint: 'a sqlite3 process is writing (or reading) this database; retry when it is done, or wait longer (PROSE_STATE_BUSY_TIMEOUT_MS)',
          },
        );
      }
      await new Promise((r) => setTimeout(r, pause));
    }
  }

  /**
   * One try: lock, check, `fn`; a read is then rolled back, a write's transaction is left open for `commit`.
   * Synchronous, so nothing else of this process runs on the connection meanwhile.
   */
  private attempt<T>(write: boolean, fn: (db: Database) => T): Outcome<T> {
    let c: Conn | undefined;
    try {
      c = this.connect(write);
      const { db } = c;
      if (write) {
        // The only mode written here, as on the WASM engines: a WAL file (made by a sqlite3) is checkpointed out of WAL.
        if (db.rows('PRAGMA journal_mode')[0]?.journal_mode === 'wal') db.rows(`PRAGMA journal_mode = ${JOURNAL_MODE}`);
        db.script('BEGIN IMMEDIATE'); // RESERVED, as the CLI's first write takes: readers still read
      } else {
        db.script('BEGIN');
      }
      db.rows('SELECT count(*) FROM sqlite_schema'); // takes SHARED (rolling back a dead writer's hot journal)
      this.check(c);
      const value = fn(db);
      if (!write) db.script('ROLLBACK');
      return { ok: true, value };
    } catch (err) {
      this.rollback();
      if (isBusy(err)) return { busy: true };
      return { ok: false, error: this.failure(err) };
    }
  }

  private rollback(): void {
    try {
      if (this.conn?.db.raw.isTransaction) this.conn.db.script('ROLLBACK');
    } catch {
      /* the pager already rolled back, or the connection was dropped */
    }
  }

  /** The open connection (reopened when the file was replaced or removed); a new one is set up first. */
  private connect(write: boolean): Conn {
    const st = statSync(this.path, { bigint: true, throwIfNoEntry: false });
    if (this.conn && (!st || st.ino !== this.conn.ino)) this.drop();
    if (!st && !write)
      throw new ProseError('E_NOT_FOUND', `${this.path} does not exist`, { location: { file: this.path } });
    if (this.conn) return this.conn;
    const mod = nativeSqlite();
    if (!mod)
      throw new ProseError(
        'E_UNSUPPORTED',
        `the native engine needs node:sqlite (Node 22.13+), not Node ${process.versions.node}`,
      );
    // node:sqlite turns foreign keys on by default; the sqlite3 CLI and WASM SQLite leave them off, and so do we.
    const raw = new mod.DatabaseSync(this.path, { timeout: 0, enableForeignKeyConstraints: false });
    const db = new NativeDatabase(raw as unknown as NativeConnection);
    try {
      if (!st || st.size === 0n) db.script(`PRAGMA page_size = ${NEW_PAGE_SIZE}`);
      for (const sql of SETTINGS) db.script(sql);
      if (db.rows('PRAGMA journal_mode')[0]?.journal_mode !== 'wal') db.rows(`PRAGMA journal_mode = ${JOURNAL_MODE}`);
    } catch (err) {
      db.close();
      throw err;
    }
    this.conn = { db, ino: statSync(this.path, { bigint: true }).ino, dataVersion: undefined };
    return this.conn;
  }

  /** Under the lock: quick_check once per object, and the caller's validation whenever another process committed. */
  private check(c: Conn): void {
    if (!this.checked) {
      const check = c.db.rows('PRAGMA quick_check').map((r) => String(r.quick_check));
      if (check.length !== 1 || check[0] !== 'ok') {
        this.drop();
        throw new ProseError('E_CORRUPT', `${this.path} is corrupt: quick_check: ${check.slice(0, 3).join('; ')}`, {
          location: { file: this.path },
          hint: 'restore it from a backup; the file was left untouched',
        });
      }
    }
    const version = Number(c.db.rows('PRAGMA data_version')[0]?.data_version);
    if (this.checked && version === c.dataVersion) return;
    if (c.dataVersion !== undefined) this.othersSeenAt = Date.now();
    try {
      this.validate?.(c.db, this.path);
    } catch (err) {
      this.drop(); // refused: every later use checks again
      throw err;
    }
    this.checked = true;
    c.dataVersion = version;
  }

  /**
   * SQLite's corruption and I/O codes as ours; anything else (a constraint, the caller's own error) as it came. A file
   * SQLite refuses gets our header check's message (not SQLite, truncated), read now that no lock is held: before
   * the lock, between a sqlite3's page writes, the header may count pages not written yet.
   */
  private failure(err: unknown): unknown {
    if (err instanceof ProseError) return err;
    const code = (err as { errcode?: unknown }).errcode;
    if (typeof code !== 'number') return err;
    const primary = code & 0xff;
    if (primary !== 10 && primary !== 11 && primary !== 26) return err;
    this.drop();
    if (primary !== 10) {
      try {
        checkDbFileHeader(this.path);
      } catch (refused) {
        if (refused instanceof ProseError) return refused;
      }
    }
    return nativeError(err, this.path);
  }

  private drop(): void {
    try {
      this.conn?.db.close();
    } catch {
      /* already closed */
    }
    this.conn = undefined;
  }
}
