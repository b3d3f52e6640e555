import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { ProseError } from '../core/errors.ts';

export type { Sqlite3Static };

/**
 * The WASM SQLite module, loaded lazily and once per process (init costs ~50-80 ms, so commands that never touch
 * SQLite never pay it). The single-binary build has no node_modules on disk: it hands the embedded sqlite3.wasm
 * bytes to `provideWasmBinary` before the first open.
 */
let injected: Uint8Array | undefined;
let loading: Promise<Sqlite3Static> | undefined;

export function provideWasmBinary(bytes: Uint8Array): void {
  if (loading) throw new ProseError('E_USAGE', 'provideWasmBinary must be called before SQLite is first loaded');
  injected = bytes;
}

let loaded: Sqlite3Static | undefined;

export function loadSqlite(): Promise<Sqlite3Static> {
  loading ??= init()
    .then((s) => (loaded = s))
    .catch((err: unknown) => {
      loading = undefined;
      throw new ProseError(
        'E_BACKEND',
        `could not load WASM SQLite: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    });
  return loading;
}

async function init(): Promise<Sqlite3Static> {
  const wasmBinary =
    injected ?? readFileSync(createRequire(import.meta.url).resolve('@sqlite.org/sqlite-wasm/sqlite3.wasm'));
  const mod = await import('@sqlite.org/sqlite-wasm');
  // The published type takes no options, but the Emscripten module accepts wasmBinary/print/printErr.
  const initModule = mod.default as unknown as (opts: object) => Promise<Sqlite3Static>;
  // print/printErr are silenced: SQLite warnings must never reach a command's stdout.
  const sqlite3 = await initModule({ wasmBinary, print: () => {}, printErr: () => {} });
  // Nor oo1's console warning on a failed step (a busy lock, a refused write): the error itself is thrown.
  (sqlite3 as unknown as { config: { warn: () => void } }).config.warn = () => {};
  return sqlite3;
}

/** The module, for synchronous code that runs only on a database `loadSqlite` already opened. */
export function loadedSqlite(): Sqlite3Static {
  if (!loaded) throw new ProseError('E_BACKEND', 'WASM SQLite is used before loadSqlite() resolved');
  return loaded;
}
