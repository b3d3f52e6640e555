import type { PostgresStore } from '../backends/postgres/index.ts';
import { PG_MEM_CAPABILITIES } from '../backends/postgres/capabilities.ts';
import type { PgDb } from '../backends/postgres/pg-db.ts';
import type { BackendEnv, BackendFactory } from '../core/backend.ts';
import type { WorldModelStore } from '../core/store.ts';
import type { Mutant } from './mutant.ts';
import type { JudgedEdition } from './sqlite-mutant.ts';

type Adapt = (store: PostgresStore) => void;
type Pg = typeof import('../backends/postgres/index.ts');

/** A pg-mem factory, with the connection to a case's database (verify reads the schema through it). */
export type PgMemFactory = BackendFactory & { openDb(env: BackendEnv): Promise<PgDb> };

/**
 * The PostgreSQL backend on pg-mem as `name`, each store first given to `adapt`. pg-mem is loaded on first open, so
 * listing or judging other mutants never loads it.
 */
export function pgMemFactory(name: string, description: string, adapt?: Adapt): PgMemFactory {
  let made: Promise<ReturnType<Pg['createPostgresMemFactory']>> | undefined;
  const real = () =>
    (made ??= import('../backends/postgres/index.ts').then((pg) => pg.createPostgresMemFactory(adapt)));
  return {
    name,
    spec: name,
    kind: 'postgres',
    capabilities: PG_MEM_CAPABILITIES,
    description,
    settings: { engine: 'pg-mem', isolation: 'one in-memory database per case' },
    open: async (env) => (await real()).open(env),
    dispose: async (env) => (await real()).dispose?.(env),
    openDb: async (env) => (await real()).openDb(env),
  };
}

/**
 * A mutant of the PostgreSQL backend on pg-mem: its world-model store replaced in part (`wm` sees the real one and
 * the store), judged against the unmutated backend on pg-mem in `judged.edition`, on `judged.areas`.
 */
export function postgresMutant(
  name: string,
  bug: string,
  wm: ((real: WorldModelStore, store: PostgresStore) => Partial<WorldModelStore>) | undefined,
  judged: JudgedEdition,
): Mutant & { factory: PgMemFactory } {
  const adapt: Adapt | undefined = wm
    ? (store) => {
        const real = store.worldModel;
        // The replaced methods see the real store's own fields through the prototype.
        Object.assign(store, { worldModel: Object.assign(Object.create(real) as WorldModelStore, wm(real, store)) });
      }
    : undefined;
  return {
    name,
    bug,
    reference: 'postgres',
    edition: judged.edition,
    areas: judged.areas,
    factory: {
      ...pgMemFactory(`mutant:${name}`, `the postgres backend on pg-mem with one bug: ${bug}`, adapt),
      edition: judged.edition,
    },
  };
}

/** The query method of the store's connection (a private field in TypeScript, there at run time). */
export const pgQueryOf = (store: PostgresStore) =>
  (store as unknown as { db: { query(sql: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]> } })
    .db;
