import { basename, join } from 'node:path';
import { DEFAULT_DECISIONS } from '../../core/decisions.ts';
import { isRunId } from '../../core/run-id.ts';
import type { Finding, Verifier } from '../finding.ts';
import { FindingSink } from '../kit/finding-sink.ts';
import { isKind } from '../kit/owned-files.ts';
import { checkStateDb } from './check-state-db.ts';
import { STATE_DB_RULES } from './rules.ts';

/**
 * A SQLite run of the current edition (sqlite.md "Database Location": `<openprose-root>/runs/{id}/state.db` beside
 * root.prose.md): its state.db judged by the current Core Schema, findings naming files relative to the run directory.
 * Chosen by the tree's edition (tree-edition.ts, shape `sql-run`); `--kind current-sql-run` names it.
 */
export const currentSqlRunVerifier: Verifier = {
  kind: 'current-sql-run',
  async detect(path) {
    const has = (f: string) => isKind(join(path, f), 'file');
    return has('state.db') && has('root.prose.md') && !has('program.prose') && !has('state.md');
  },
  async verify(path, opts) {
    const out: Finding[] = [];
    const dirName = basename(path);
    await checkStateDb(join(path, 'state.db'), new FindingSink(STATE_DB_RULES, out), {
      file: 'state.db',
      thresholdBytes: opts.attachmentThresholdBytes ?? DEFAULT_DECISIONS.attachmentThresholdBytes,
      dbKind: 'run',
      runDir: path,
      edition: opts.edition ?? 'current',
      ...(isRunId(dirName) ? { expectRunId: dirName } : {}),
    });
    return out;
  },
};
