/** The values a statement binds and a row holds, on either engine (WASM SQLite or node:sqlite). */
export type SqlValue = string | number | bigint | Uint8Array | null;
export type SqlRow = Record<string, SqlValue>;
export type SqlParams = readonly unknown[] | Record<string, unknown>;
