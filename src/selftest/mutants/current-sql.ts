import { commitReadingsOf } from '../../canon/commit-readings.ts';
import { worldModelHandlers } from '../../canon/world-model-ops.ts';
import { sqliteFactory, SqliteStore } from '../../backends/sqlite/index.ts';
import type { BackendEnv } from '../../core/backend.ts';
import type { RunRecord, RunRef } from '../../core/model.ts';
import { createBackend } from '../../core/semantics.ts';
import type { FindingsFilter } from '../../conformance/run-subagent.ts';
import type { Mutant } from '../mutant.ts';

/**
 * The current edition's subagent contract on SQL storage (session-protocol-current-sql.yaml, decision
 * current-sql-subagent): mutants of the sqlite backend judged in the current edition on the session-protocol area,
 * against the unmutated sqlite backend's results there.
 */
function currentSqliteMutant(
  name: string,
  bug: string,
  m: { store?: (env: BackendEnv) => SqliteStore; checker?: FindingsFilter },
): Mutant {
  return {
    name,
    bug,
    reference: 'sqlite',
    edition: 'current',
    areas: ['session-protocol'],
    ...(m.checker ? { checker: m.checker } : {}),
    factory: {
      ...sqliteFactory,
      name: `mutant:${name}`,
      spec: `mutant:${name}`,
      edition: 'current',
      description: `the sqlite backend in the current edition with one bug: ${bug}`,
      async open(env) {
        const store =
          m.store?.(env) ?? new SqliteStore(env.projectDir, env.homeDir, env.decisions, undefined, 'current');
        return createBackend({
          store,
          extraHandlers: worldModelHandlers(store, commitReadingsOf(env.decisions)),
          decisions: env.decisions,
          capabilities: sqliteFactory.capabilities,
        });
      },
    },
  };
}

/** The store's own connection to a run's state.db (private in TypeScript, there at run time). */
type RunFile = { write(fn: (db: { exec(sql: string): unknown }) => unknown): Promise<unknown> };

/** A current run's state.db whose bindings table also has v0's kind column, so a v0-column write is taken. */
class V0KindColumnStore extends SqliteStore {
  override async createRun(rec: RunRecord): Promise<RunRef> {
    const run = await super.createRun(rec);
    const file = await (this as unknown as { runFile(r: RunRef): Promise<RunFile> }).runFile(run);
    await file.write((db) => db.exec('ALTER TABLE bindings ADD COLUMN kind TEXT'));
    return run;
  }
}

export const CURRENT_SQL_MUTANTS: Mutant[] = [
  currentSqliteMutant(
    'sqlite-current-keeps-v0-kind',
    "a current run's bindings table keeps v0's kind column beside binding, so a subagent writing the v0 columns is not refused",
    { store: (env) => new V0KindColumnStore(env.projectDir, env.homeDir, env.decisions, undefined, 'current') },
  ),
  currentSqliteMutant(
    'checker-v0-sql-location-accepted',
    'the subagent checker takes a current SQL confirmation whose Location is the v0 .prose/runs/{id}/state.db',
    { checker: (findings) => findings.filter((f) => f.rule !== 'message.location-edition') },
  ),
];
