import { join } from 'node:path';
import { sqliteFactory } from '../../../src/backends/sqlite/index.ts';
import { resolveDecisions } from '../../../src/core/decisions.ts';
import { tempEnv } from '../../helpers/temp-env.ts';
import { execOn } from './seed-db.ts';

const VM = { role: 'vm' } as const;

export interface LedgerDb {
  db: string;
  exec(sql: string): Promise<void>;
  cleanup(): void;
}

/**
 * A state.db our sqlite backend wrote (v0 edition) with world-model commits on two nodes: for `summary` rendered v1,
 * a skipped commit of the same files, a failed render, then rendered v2 (receipt ids 1, 2, 3, 4 in that order);
 * for `notes` one rendered commit (receipt id 5).
 */
export async function ledgerDb(): Promise<LedgerDb> {
  const env = tempEnv(resolveDecisions({}));
  const b = await sqliteFactory.open(env);
  try {
    const { run } = await b.call('createRun', { program: 'let a = session "A"\n', programPath: 'a.prose' }, VM);
    const commit = (node: string, text: string) =>
      b.call('commitWorldModel', { run, node, contract: 'c1', files: { 'truth.md': text } }, VM);
    await commit('summary', 'first\n');
    await commit('summary', 'first\n');
    await b.call('failRender', { run, node: 'summary', contract: 'c1', reason: 'model refused' }, VM);
    await commit('summary', 'second\n');
    await commit('notes', 'a note\n');
    const db = join(env.projectDir, '.prose/runs', run, 'state.db');
    const exec = execOn(db);
    return { db, exec, cleanup: env.cleanup };
  } finally {
    await b.close();
  }
}
