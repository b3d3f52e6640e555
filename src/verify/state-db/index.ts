import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { DEFAULT_DECISIONS } from '../../core/decisions.ts';
import { isRunId } from '../../core/run-id.ts';
import type { Finding, Verifier } from '../finding.ts';
import { FindingSink } from '../kit/finding-sink.ts';
import { checkStateDb } from './check-state-db.ts';
import { STATE_DB_RULES } from './rules.ts';

/** A SQLite file of sqlite.md: a run's state.db, or an agents.db (project or user scope). */
export const stateDbVerifier: Verifier = {
  kind: 'state-db',
  async detect(path) {
    return hasSqliteMagic(path);
  },
  async verify(path, opts) {
    const out: Finding[] = [];
    const runDir = dirname(path);
    const dbKind = basename(path) === 'agents.db' ? 'agents' : 'run';
    const dirName = basename(runDir);
    await checkStateDb(path, new FindingSink(STATE_DB_RULES, out), {
      file: basename(path),
      thresholdBytes: opts.attachmentThresholdBytes ?? DEFAULT_DECISIONS.attachmentThresholdBytes,
      dbKind,
      ...(opts.edition ? { edition: opts.edition } : {}),
      ...(dbKind === 'run' ? { runDir } : {}),
      ...(dbKind === 'run' && isRunId(dirName) ? { expectRunId: dirName } : {}),
    });
    return out;
  },
};

/** The first 16 bytes of every SQLite 3 database file. */
function hasSqliteMagic(path: string): boolean {
  let fd: number | undefined;
  try {
    // Non-blocking, and a regular file only: a FIFO named on the command line must not hang detection.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!fstatSync(fd).isFile()) return false;
    const buf = Buffer.alloc(16);
    return readSync(fd, buf, 0, 16, 0) === 16 && buf.toString('latin1') === 'SQLite format 3\0';
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export { STATE_DB_RULES, type StateDbRuleId } from './rules.ts';
export { checkStateDb } from './check-state-db.ts';
export { currentSqlRunVerifier } from './current-sql-run.ts';
export { stateDbEditionOf } from './state-db-edition.ts';
