export { SqliteFile, JOURNAL_MODE, type SqliteFileOptions } from './sqlite-file.ts';
export { withFileLock, DEFAULT_LOCK_TIMEOUT_MS, type LockOptions } from '../io/file-lock.ts';
export { withSharedLock } from '../io/reader-mark.ts';
export { checkDbBytes } from './db-header.ts';
export { loadSqlite, provideWasmBinary, type Sqlite3Static } from './wasm.ts';
export {
  queryRows,
  queryRow,
  queryValue,
  execute,
  executeScript,
  wasmDatabase,
  type Database,
  type WasmDatabase,
  columnText,
  type SqlRow,
  type SqlValue,
  type SqlParams,
} from './rows.ts';
export { loadedSqlite } from './wasm.ts';
export { encodeWtf8, decodeWtf8 } from './wtf8.ts';
export {
  SCHEMA_VERSION,
  RUN_DDL,
  AGENTS_DDL,
  AGENTS_REQUIRED,
  checkVersion,
  needsSchema,
  ensureSchema,
  schemaDdl,
  type DbKind,
} from './schema.ts';
export { CURRENT_RUN_DDL, EXECUTION_COLUMNS } from './schema-current.ts';
export {
  defaultEngine,
  checkEngine,
  wasmSqlEngine,
  enginesAvailable,
  SQLITE_ENGINES,
  ENGINE_ENV,
  BUSY_TIMEOUT_MS,
  BUSY_TIMEOUT_ENV,
  type SqliteEngine,
} from './engine.ts';
export { nativeSqlite } from './native-lock.ts';
