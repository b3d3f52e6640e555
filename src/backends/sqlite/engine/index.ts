export { SqliteFile, type Database, type SqliteFileOptions } from './sqlite-file.ts';
export { withFileLock, withSharedLock, DEFAULT_LOCK_TIMEOUT_MS, type LockOptions } from './file-lock.ts';
export { checkDbBytes } from './db-header.ts';
export { loadSqlite, provideWasmBinary, type Sqlite3Static } from './wasm.ts';
export { queryRows, queryRow, queryValue, execute, columnText, type SqlRow, type SqlValue, type SqlParams } from './rows.ts';
export { loadedSqlite } from './wasm.ts';
export { encodeWtf8, decodeWtf8 } from './wtf8.ts';
