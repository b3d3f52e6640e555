import { basename, join } from 'node:path';
import type { Edition } from '../../core/editions.ts';
import { DEFAULT_DECISIONS } from '../../core/decisions.ts';
import { isRunId } from '../../core/run-id.ts';
import { isCurrentSqlRun } from '../edition/tree-edition.ts';
import type { Finding, Verifier } from '../finding.ts';
import { FindingSink } from '../kit/finding-sink.ts';
import { checkStateDb } from './check-state-db.ts';
import { STATE_DB_RULES, type StateDbRuleId } from './rules.ts';

/**
 * A SQLite run of the current edition (sqlite.md "Database Location": `<openprose-root>/runs/{id}/state.db` beside
 * root.prose.md): its state.db judged by the current Core Schema, findings naming files relative to the run directory.
 * Chosen by the tree's edition (tree-edition.ts, shape `sql-run`); `--kind current-sql-run` names it.
 */
export const currentSqlRunVerifier: Verifier = {
  kind: 'current-sql-run',
  async detect(path) {
    return isCurrentSqlRun(path);
  },
  async verify(path, opts) {
    const out: Finding[] = [];
    await checkCurrentSqlRun(path, new FindingSink(STATE_DB_RULES, out), {
      thresholdBytes: opts.attachmentThresholdBytes ?? DEFAULT_DECISIONS.attachmentThresholdBytes,
      edition: opts.edition ?? 'current',
    });
    return out;
  },
};

/** The state.db of the current SQLite run at `runDir`, reported as `state.db` under the sink's prefix. */
export async function checkCurrentSqlRun(
  runDir: string,
  sink: FindingSink<StateDbRuleId>,
  opts: { thresholdBytes: number; edition: Edition },
): Promise<void> {
  const dirName = basename(runDir);
  await checkStateDb(join(runDir, 'state.db'), sink, {
    file: 'state.db',
    thresholdBytes: opts.thresholdBytes,
    dbKind: 'run',
    runDir,
    edition: opts.edition,
    ...(isRunId(dirName) ? { expectRunId: dirName } : {}),
  });
}
