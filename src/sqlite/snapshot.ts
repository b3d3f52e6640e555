import { fstatSync, openSync, readSync } from 'node:fs';
import type { Database } from '@sqlite.org/sqlite-wasm';
import { checkDbBytes, isWalHeader } from './db-header.ts';
import { closeDbFd } from './native-lock.ts';
import type { Sqlite3Static } from './wasm.ts';

/**
 * Runs `fn` on an in-memory copy of the committed file, then throws the copy away: the way a read that changes rows
 * (a storage view running DELETE) sees its changes without any reaching the disk. The caller holds the shared lock,
 * so the bytes are one commit's.
 */
export function onSnapshot<T>(sqlite3: Sqlite3Static, path: string, fn: (db: Database) => T): T {
  const bytes = readWhole(path);
  checkDbBytes(bytes, path);
  if (isWalHeader(bytes)) {
    bytes[18] = 1;
    bytes[19] = 1;
  } // as the VFS reads it (db-header.ts checked the -wal)
  const { capi, wasm, oo1 } = sqlite3;
  const db = new oo1.DB(':memory:', 'c');
  try {
    if (bytes.length > 0) {
      const p = wasm.allocFromTypedArray(bytes);
      const rc = capi.sqlite3_deserialize(
        db.pointer!,
        'main',
        p,
        bytes.length,
        bytes.length,
        capi.SQLITE_DESERIALIZE_FREEONCLOSE | capi.SQLITE_DESERIALIZE_RESIZEABLE,
      );
      if (rc !== 0) throw new Error(`sqlite3_deserialize failed with ${capi.sqlite3_js_rc_str(rc)}`);
    }
    return fn(db);
  } finally {
    db.close();
  }
}

/** The file's bytes, as a plain Uint8Array (allocFromTypedArray refuses Buffer views); its descriptor closed safely. */
function readWhole(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const bytes = new Uint8Array(fstatSync(fd).size);
    for (let got = 0; got < bytes.length;) {
      const n = readSync(fd, bytes, got, bytes.length - got, got);
      if (n === 0) return bytes.subarray(0, got);
      got += n;
    }
    return bytes;
  } finally {
    closeDbFd(fd); // readFileSync would close it at once, dropping the native lock this read holds (native-lock.ts)
  }
}
