import { DataType, newDb, type IMemoryDb } from 'pg-mem';
import type { Backend, BackendEnv, BackendFactory } from '../../core/backend.ts';
import { createBackend } from '../../core/semantics.ts';
import { commitReadingsOf } from '../../canon/commit-readings.ts';
import { worldModelHandlers } from '../../canon/world-model-ops.ts';
import { PG_MEM_CAPABILITIES } from './capabilities.ts';
import { ensureSchema } from './ensure-schema.ts';
import { PgDb } from './pg-db.ts';
import { MemPool } from './mem-pool.ts';
import { PostgresStore } from './postgres-store.ts';
import { memLogWatch } from './mem-log-watch.ts';
import { MEM_LOOKUP_INDEXES } from './mem-lookup-indexes.ts';
import { memBindingWatch, memReceiptWatch, memSegmentWatch } from './mem-row-watch.ts';

/**
 * A factory for the PostgreSQL backend on pg-mem: one in-memory database per `env.storageKey`, kept by the
 * factory, so a restart (close, then open on the same env) sees the same data, and `dispose` forgets it.
 * Each call makes a factory with its own databases (no state shared between factories). `adapt` sees each store
 * before the backend is built on it (selftest's postgres mutants replace part of it there).
 */
export function createPostgresMemFactory(
  adapt?: (store: PostgresStore) => void,
): BackendFactory & { openDb(env: BackendEnv): PgDb } {
  const dbs = new Map<string, IMemoryDb>();
  const memOf = (env: BackendEnv) => {
    let mem = dbs.get(env.storageKey);
    if (!mem) dbs.set(env.storageKey, (mem = newMemDb()));
    return mem;
  };
  // Not pg's adapter for pg-mem: MemPool parses each statement text once and puts the values in as literals itself.
  const openDb = (env: BackendEnv) => new PgDb(new MemPool(memOf(env)), undefined, true);
  return {
    name: 'postgres',
    kind: 'postgres',
    capabilities: PG_MEM_CAPABILITIES,
    description: 'PostgreSQL schema openprose on pg-mem (in memory, one database per case)',
    settings: { engine: 'pg-mem', isolation: 'one in-memory database per case' },
    openDb,
    async open(env) {
      const fresh = !dbs.has(env.storageKey);
      try {
        return await openOnMem(memOf(env), env, adapt);
      } catch (err) {
        // A database this call made and could not set up is forgotten: nothing half-created stays.
        if (fresh) dbs.delete(env.storageKey);
        throw err;
      }
    },
    async dispose(env) {
      dbs.delete(env.storageKey);
    },
  };
}

/** An empty pg-mem database as the factory makes one: with decode() (registerDecode). */
export function newMemDb(): IMemoryDb {
  // noAstCoverageCheck: pg-mem otherwise refuses some valid DDL it only partly reads.
  const mem = newDb({ noAstCoverageCheck: true });
  registerDecode(mem);
  return mem;
}

/**
 * The backend on one pg-mem database, as the factory opens it: the schema made or checked, the store with pg-mem's
 * change counts for its caches and the indexes pg-mem's planner can use (mem-lookup-indexes.ts).
 */
export async function openOnMem(
  mem: IMemoryDb,
  env: BackendEnv,
  adapt?: (store: PostgresStore) => void,
): Promise<Backend> {
  const db = new PgDb(new MemPool(mem), undefined, true);
  const edition = env.edition ?? 'v0';
  try {
    await ensureSchema(db, edition);
  } catch (err) {
    await db.end().catch(() => undefined);
    throw err;
  }
  const watches = {
    log: memLogWatch(mem),
    bindings: memBindingWatch(mem),
    segments: memSegmentWatch(mem),
    receipts: memReceiptWatch(mem),
    lookupIndexes: MEM_LOOKUP_INDEXES,
  };
  const store = new PostgresStore(db, env.projectDir, env.decisions, edition, watches);
  adapt?.(store);
  return createBackend({
    store,
    extraHandlers: worldModelHandlers(store, commitReadingsOf(env.decisions)),
    decisions: env.decisions,
    capabilities: PG_MEM_CAPABILITIES,
  });
}

export const postgresMemFactory: BackendFactory = createPostgresMemFactory();

/**
 * PostgreSQL's decode(text, 'hex'), which pg-mem lacks: the world-model store sends bytes as hex through it, since
 * pg-mem turns a bound Buffer into UTF-8 text and loses every byte that is not UTF-8.
 */
function registerDecode(mem: IMemoryDb): void {
  mem.public.registerFunction({
    name: 'decode',
    args: [DataType.text, DataType.text],
    returns: DataType.bytea,
    implementation: (text: string, format: string) => {
      if (format !== 'hex' || !/^(?:[0-9a-fA-F]{2})*$/.test(text))
        throw new Error(`decode: only whole hex text is supported here, got format ${format}`);
      return Buffer.from(text, 'hex');
    },
  });
}
