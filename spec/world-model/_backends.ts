/**
 * The backends a world-model spec commits to. A factory that already declares `world-model` is used as is; until
 * the owners wire their store (see the report to the lead), this harness wires our world-model-store.ts into each
 * backend's StateStore the way the lead will (worldModel field + worldModelHandlers), so the stores are exercised now.
 */
import type { Backend, BackendEnv, BackendFactory } from '../../src/core/backend.ts';
import type { Capability } from '../../src/core/capabilities.ts';
import { createBackend } from '../../src/core/semantics.ts';
import type { StateStore, WorldModelStore } from '../../src/core/store.ts';
import { worldModelHandlers } from '../../src/canon/world-model-ops.ts';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';
import { FsStore } from '../../src/backends/filesystem/fs-store.ts';
import { SqliteStore, SQLITE_CAPABILITIES } from '../../src/backends/sqlite/index.ts';
import { SqliteWorldModelStore } from '../../src/backends/sqlite/world-model-store.ts';
import { createPostgresMemFactory } from '../../src/backends/postgres/postgres-mem-factory.ts';
import { PostgresStore } from '../../src/backends/postgres/postgres-store.ts';
import { ensureSchema } from '../../src/backends/postgres/ensure-schema.ts';
import { PG_MEM_CAPABILITIES, PG_SERVER_CAPABILITIES } from '../../src/backends/postgres/capabilities.ts';
import { postgresUrlFactory } from '../../src/backends/postgres/postgres-url-factory.ts';
import { PostgresWorldModelStore } from '../../src/backends/postgres/world-model-store.ts';
import { IN_CONTEXT_CAPABILITIES } from '../../src/backends/in-context/in-context-factory.ts';
import { TranscriptStore } from '../../src/backends/in-context/transcript-store.ts';

const WM: Capability[] = ['world-model', 'receipts'];

export interface WmBackend {
  name: string;
  kind: BackendFactory['kind'];
  capabilities: readonly Capability[];
  /** Opens (or reopens, for a restart) the backend on `env`; `store` is its canonical store. */
  open(env: BackendEnv): Promise<{ backend: Backend; store: WorldModelStore }>;
}

function wired(
  name: string,
  kind: BackendFactory['kind'],
  caps: readonly Capability[],
  make: (env: BackendEnv) => Promise<{ store: StateStore; wm: WorldModelStore }>,
): WmBackend {
  return {
    name,
    kind,
    capabilities: [...caps, ...WM],
    async open(env) {
      const made = await make(env);
      const store = made.store as { worldModel?: WorldModelStore } & StateStore;
      // An owner who wired a store already keeps it; otherwise ours is wired here.
      if (!store.worldModel) store.worldModel = made.wm;
      const wm = store.worldModel;
      const backend = createBackend({
        store,
        extraHandlers: worldModelHandlers(store),
        decisions: env.decisions,
        capabilities: [...caps, ...WM],
      });
      return { backend, store: wm };
    },
  };
}

type Priv = { runFile(run: string): Promise<never>; paths: { runDir(run: string): string } };

/** One instance per spec: the pg-mem and in-context factories keep their databases and conversations. */
export function wmBackends(): WmBackend[] {
  const pg = createPostgresMemFactory();
  const conversations = new Map<string, { text: string }>();
  const out: WmBackend[] = [];
  out.push(
    wired(
      'filesystem',
      'directory',
      filesystemFactory.capabilities.filter((c) => !WM.includes(c)),
      async (env) => {
        const store = new FsStore(env.projectDir, env.homeDir, env.decisions);
        return { store, wm: store.worldModel };
      },
    ),
  );
  out.push(
    wired(
      'sqlite',
      'sqlite',
      SQLITE_CAPABILITIES.filter((c) => !WM.includes(c)),
      async (env) => {
        const store = new SqliteStore(env.projectDir, env.homeDir, env.decisions);
        const p = store as unknown as Priv;
        return {
          store,
          wm: new SqliteWorldModelStore(
            (run) => p.runFile.call(store, run),
            (run) => p.paths.runDir(run),
          ),
        };
      },
    ),
  );
  out.push(
    wired(
      'postgres',
      'postgres',
      PG_MEM_CAPABILITIES.filter((c) => !WM.includes(c)),
      async (env) => {
        const db = pg.openDb(env);
        await ensureSchema(db);
        return { store: new PostgresStore(db, env.projectDir, env.decisions), wm: new PostgresWorldModelStore(db) };
      },
    ),
  );
  const url = process.env.PROSE_STATE_TEST_PG_URL;
  if (url) {
    // A real server (scripts/with-postgres.sh): one fresh database per storage key, as the url factory makes.
    const real = postgresUrlFactory(url, 'world-model');
    out.push(
      wired(
        'postgres:real',
        'postgres',
        PG_SERVER_CAPABILITIES.filter((c) => !WM.includes(c)),
        async (env) => {
          const db = await real.openDb(env);
          await ensureSchema(db);
          return { store: new PostgresStore(db, env.projectDir, env.decisions), wm: new PostgresWorldModelStore(db) };
        },
      ),
    );
  }
  // The in-context owner narrates the world-model in their transcript grammar (transcript-world-model.ts).
  out.push(
    wired(
      'in-context',
      'transcript',
      IN_CONTEXT_CAPABILITIES.filter((c) => !WM.includes(c)),
      async (env) => {
        let c = conversations.get(env.storageKey);
        if (!c) conversations.set(env.storageKey, (c = { text: '' }));
        const store = new TranscriptStore(c, env.decisions, 'verbose') as StateStore;
        return { store, wm: store.worldModel! };
      },
    ),
  );
  return out;
}

/** A harness backend as a factory the conformance runner takes. */
export function asFactory(wb: WmBackend): BackendFactory {
  return {
    name: `${wb.name}+world-model`,
    kind: wb.kind,
    capabilities: wb.capabilities,
    description: `${wb.name} with its world-model store wired by the spec harness`,
    open: async (env) => (await wb.open(env)).backend,
  };
}
