import { worldModelHandlers } from '../canon/world-model-ops.ts';
import { commitReadingsOf } from '../canon/commit-readings.ts';
import { SQLITE_CAPABILITIES, sqliteFactory, SqliteStore } from '../backends/sqlite/index.ts';
import type { BackendEnv } from '../core/backend.ts';
import type { Edition } from '../core/editions.ts';
import type { RunRef } from '../core/model.ts';
import { createBackend } from '../core/semantics.ts';
import type { Mutant } from './mutant.ts';

/** Where a mutant of a SQL backend is judged past v0: its edition and the areas whose cases judge it. */
export interface JudgedEdition {
  edition: Edition;
  areas: readonly string[];
}

/**
 * A mutant of the sqlite backend: its store with some methods replaced, judged against the unmutated sqlite backend
 * (in `judged.edition` when given, on `judged.areas`). `make` builds the store in the edition the case opens.
 */
export function sqliteMutant(
  name: string,
  bug: string,
  make: (env: BackendEnv) => SqliteStore,
  judged?: JudgedEdition,
): Mutant {
  return {
    name,
    bug,
    reference: 'sqlite',
    ...(judged ? { edition: judged.edition, areas: judged.areas } : {}),
    factory: {
      ...sqliteFactory,
      name: `mutant:${name}`,
      spec: `mutant:${name}`,
      description: `the sqlite backend with one bug: ${bug}`,
      ...(judged ? { edition: judged.edition } : {}),
      async open(env) {
        const store = make(env);
        return createBackend({
          store,
          extraHandlers: worldModelHandlers(store, commitReadingsOf(env.decisions)),
          decisions: env.decisions,
          capabilities: SQLITE_CAPABILITIES,
        });
      },
    },
  };
}

/** The sqlite mutant harness with no bug, in the edition the case opens (the control of sqlite mutants past v0). */
export function sqliteControl(): Mutant {
  return sqliteMutant(
    'sqlite-control',
    'none: the unmutated sqlite backend, built the way every sqlite mutant is',
    storeOf,
  );
}

/** The store the sqlite backend opens, in the edition the case gives. */
export const storeOf = (env: BackendEnv): SqliteStore =>
  new SqliteStore(env.projectDir, env.homeDir, env.decisions, undefined, env.edition ?? 'v0');

/** The part of a state.db connection a mutant uses: a write transaction running SQL text. */
export type RunFile = { write<T>(fn: (db: { exec(sql: string): unknown }) => T): Promise<T> };

/** The store's own connection to a run's state.db (private in TypeScript, there at run time). */
export const runFileOf = (store: SqliteStore, run: RunRef): Promise<RunFile> =>
  (store as unknown as { runFile(r: RunRef): Promise<RunFile> }).runFile(run);
