import { basename, dirname } from 'node:path';
import { DEFAULT_DECISIONS } from '../../core/decisions.ts';
import type { Edition } from '../../core/editions.ts';
import { ProseError } from '../../core/errors.ts';
import { enginesAvailable, execute, SqliteFile, type Database } from '../../sqlite/index.ts';
import type { Finding } from '../finding.ts';
import { FindingSink } from '../kit/finding-sink.ts';
import { changeCount, planStatements, type RebuildOutcome } from '../projections/index.ts';
import { checkDb, checkStateDb, type ProjectionCollector, type StateDbOptions } from './check-state-db.ts';
import { QueryBudget } from './query-budget.ts';
import { STATE_DB_RULES } from './rules.ts';

/** How long a --write waits for another writer to let go of the file before it is refused. */
export const REBUILD_LOCK_WAIT_MS = 1000;

/**
 * `verify --rebuild-projections` on a state.db (decision sql-projections). Without `write` the plan is made by the
 * read-only check and nothing is opened for writing. With it, the plan is made and applied in one transaction under
 * the exclusive lock (SQLite's own where node:sqlite exists, and ours), so no writer changes the ledger in between;
 * a lock held past REBUILD_LOCK_WAIT_MS is E_CONFLICT. Only world_model_published rows are written.
 */
export async function rebuildStateDb(abs: string, write: boolean): Promise<RebuildOutcome> {
  const opts: StateDbOptions = {
    file: basename(abs),
    runDir: dirname(abs),
    thresholdBytes: DEFAULT_DECISIONS.attachmentThresholdBytes,
    dbKind: 'run',
  };
  if (!write) {
    const collector: ProjectionCollector = { plans: [] };
    const out: Finding[] = [];
    await checkStateDb(abs, new FindingSink(STATE_DB_RULES, out), { ...opts, projections: collector });
    const opened = out.find((f) => f.rule === 'db.open');
    if (opened) throw new ProseError('E_IO', opened.message, { location: { file: opts.file } });
    return { edition: currentOnly(collector, opts.file), plans: collector.plans, written: 0 };
  }
  const file = await SqliteFile.open(abs, {
    engine: enginesAvailable().includes('posix') ? 'posix' : 'wasm',
    timeoutMs: REBUILD_LOCK_WAIT_MS,
  });
  try {
    return await file.write((db) => planAndApply(db, opts));
  } finally {
    file.close();
  }
}

/** Inside the write transaction: the same check as verify, then the plan's statements (a throw rolls back). */
function planAndApply(db: Database, opts: StateDbOptions): RebuildOutcome {
  const collector: ProjectionCollector = { plans: [] };
  const budget = new QueryBudget(db);
  try {
    checkDb(db, budget, new FindingSink(STATE_DB_RULES, []), { ...opts, projections: collector });
  } finally {
    budget.dispose();
  }
  const edition = currentOnly(collector, opts.file);
  for (const plan of collector.plans)
    for (const s of planStatements(plan, 'world_model_published', () => '?')) execute(db, s.sql, s.params);
  return { edition, plans: collector.plans, written: changeCount(collector.plans) };
}

/** The v0 texts call nothing a projection: a rebuild there is a usage error, not an empty plan. */
function currentOnly(c: ProjectionCollector, file: string): Edition {
  if (c.edition !== 'current')
    throw new ProseError('E_USAGE', `${file} is a v0 state.db: the v0 texts name no projections to rebuild`, {
      location: { file },
      hint: '--rebuild-projections reads a current-edition state.db (run.root_path, bindings.binding)',
    });
  return c.edition;
}
