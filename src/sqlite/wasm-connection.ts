import type { Database as WasmDatabase } from '@sqlite.org/sqlite-wasm';
import { ProseError } from '../core/errors.ts';
import { checkDbFile } from './db-header.ts';
import { mainFileOf, NODE_FS_VFS, takeVfsError } from './node-fs-vfs.ts';
import type { VfsFile } from './vfs-file.ts';
import type { Sqlite3Static } from './wasm.ts';

/** The rollback journal of every connection: sqlite-journal in the decisions table says why this one. */
export const JOURNAL_MODE = 'persist';
/** A persisted journal left larger than this by a big transaction is cut back to it. */
const JOURNAL_SIZE_LIMIT = 1 << 20;
/** Databases we create get the sqlite3 CLI's page size (the WASM build's default is 8 KiB: twice the bytes a commit). */
const NEW_PAGE_SIZE = 4096;

/** A WASM SQLite connection on one file through the node:fs VFS, as `SqliteFile` keeps it between operations. */
export interface Connection {
  db: WasmDatabase;
  main: VfsFile;
  ino: bigint;
  verified: boolean;
  counter: number | undefined;
}

/** Opens `path` (made when missing); a file that is not SQLite throws E_CORRUPT, one we cannot open E_IO. */
export function openConnection(sqlite3: Sqlite3Static, path: string, exists: boolean): Connection {
  try {
    if (exists) checkDbFile(path);
    const db = new sqlite3.oo1.DB(path, exists ? 'w' : 'c', NODE_FS_VFS);
    const main = mainFileOf(sqlite3, db);
    return { db, main, ino: main.ino!, verified: false, counter: undefined };
  } catch (err) {
    if (err instanceof ProseError) throw err;
    const cause = takeVfsError() ?? err;
    throw new ProseError('E_IO', `cannot open ${path}: ${(cause as Error).message}`, {
      location: { file: path },
      cause,
    });
  }
}

/**
 * The settings of a new connection (a new file also gets our page size), then quick_check when asked; throws
 * SQLite's own error.
 */
export function configureConnection(c: Connection, empty: boolean, quickCheck: boolean): void {
  if (empty) c.db.exec(`PRAGMA page_size = ${NEW_PAGE_SIZE}`);
  c.db.selectValue(`PRAGMA journal_mode = ${JOURNAL_MODE}`);
  c.db.selectValue(`PRAGMA journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
  c.db.exec('PRAGMA synchronous = FULL');
  if (quickCheck) {
    const check = c.db.selectValues('PRAGMA quick_check');
    if (check.length !== 1 || check[0] !== 'ok') throw new Error(`quick_check: ${check.slice(0, 3).join('; ')}`);
  }
}
