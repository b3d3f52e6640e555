import { execFileSync } from 'node:child_process';
import { sqliteFactory } from '../../../src/backends/sqlite/index.ts';
import { resolveDecisions } from '../../../src/core/decisions.ts';
import { editionRunDir } from '../../../src/core/seed-layout.ts';
import { tempEnv } from '../../helpers/temp-env.ts';

const VM = { role: 'vm' } as const;

export interface CurrentRunDb {
  /** The run directory, <openprose-root>/runs/{id}/, holding state.db and root.prose.md. */
  dir: string;
  /** The temp root holding the project (and nothing else a verify of `dir` may read). */
  root: string;
  /** Runs SQL on state.db with the real sqlite3 CLI, in the run directory. */
  sql(text: string): string;
  cleanup(): void;
}

/**
 * A SQLite run of the current edition our backend wrote, node `n` committed once per text of `commits` (the same
 * text twice makes a skipped receipt). The receipt table is the current text's: no content_hash column.
 */
export async function currentRunDb(commits: readonly string[]): Promise<CurrentRunDb> {
  const env = tempEnv(resolveDecisions({}));
  const b = await sqliteFactory.open({ ...env, edition: 'current' });
  try {
    const { run } = await b.call('createRun', { program: 'let a = session "A"\n', programPath: 'a.prose' }, VM);
    for (const text of commits)
      await b.call('commitWorldModel', { run, node: 'n', contract: 'c', files: { 'truth.md': text } }, VM);
    const dir = editionRunDir(env.projectDir, run, 'current');
    const sql = (text: string) => execFileSync('sqlite3', ['state.db', text], { cwd: dir, encoding: 'utf8' });
    return { dir, root: env.root, sql, cleanup: env.cleanup };
  } finally {
    await b.close();
  }
}
