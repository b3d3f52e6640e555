import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Backend, BackendEnv } from '../../../src/core/backend.ts';
import { DEFAULT_DECISIONS } from '../../../src/core/decisions.ts';
import { filesystemFactory } from '../../../src/backends/filesystem/index.ts';
import { sqliteFactory } from '../../../src/backends/sqlite/index.ts';
import { createPostgresMemFactory } from '../../../src/backends/postgres/index.ts';
import type { PgQuery } from '../../../src/session/index.ts';
import type { SubagentStorageKind } from '../../../src/core/backend.ts';

export type Kind = 'filesystem' | 'sqlite' | 'postgres';

export interface Opened {
  backend: Backend;
  env: BackendEnv;
  projectDir: string;
  homeDir: string;
  /** The storage kind of the backend opened (what the session layer is told). */
  storage: SubagentStorageKind;
  pgQuery?: PgQuery;
  pgRun?: (sql: string) => Promise<unknown>;
}

/** A fresh project (and home) per call, and the backend of that kind opened on it. */
export async function openBackend(kind: Kind): Promise<Opened> {
  const root = mkdtempSync(join(tmpdir(), `prose-session-${kind}-`));
  const env: BackendEnv = {
    projectDir: join(root, 'project'),
    homeDir: join(root, 'home'),
    decisions: { ...DEFAULT_DECISIONS },
    storageKey: root,
  };
  if (kind === 'postgres') {
    const factory = createPostgresMemFactory();
    const backend = await factory.open(env);
    const db = factory.openDb(env);
    return {
      backend,
      env,
      projectDir: env.projectDir,
      homeDir: env.homeDir,
      storage: 'postgres',
      pgQuery: (sql, params) => db.query(sql, (params ?? []) as never),
      pgRun: (sql) => db.query(sql),
    };
  }
  const factory = kind === 'filesystem' ? filesystemFactory : sqliteFactory;
  const backend = await factory.open(env);
  return {
    backend,
    env,
    projectDir: env.projectDir,
    homeDir: env.homeDir,
    storage: factory.kind as SubagentStorageKind,
  };
}
