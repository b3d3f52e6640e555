import { mutant, type Mutant } from '../mutant.ts';
import { postgresMutant } from '../postgres-mutant.ts';
import { sqliteControl } from '../sqlite-mutant.ts';
import { AGENT_MUTANTS } from './agents.ts';
import { BINDING_MUTANTS } from './bindings.ts';
import { CACHE_MUTANTS } from './caching.ts';
import { CLEAN_ROOM_MUTANTS } from './clean-room.ts';
import { COMMIT_DURABILITY_MUTANTS } from './commit-durability.ts';
import { CRASH_ORDERING_MUTANTS } from './crash-ordering.ts';
import { CURRENT_LAYOUT_MUTANTS } from './current-layout.ts';
import { CURRENT_SQL_MUTANTS } from './current-sql.ts';
import { CURRENT_VM_LOG_MUTANTS } from './current-vm-log.ts';
import { DURABILITY_MUTANTS } from './durability.ts';
import { EXECUTION_MUTANTS, ROLE_MUTANTS } from './execution.ts';
import { EXECUTION_ID_MUTANTS } from './execution-ids.ts';
import { FINGERPRINT_MUTANTS } from './fingerprints.ts';
import { RENDER_MUTANTS } from './render.ts';
import { LOCAL_TIME_MUTANTS } from './local-time.ts';
import { NAMING_MUTANTS } from './naming.ts';
import { READING_MUTANTS } from './readings.ts';
import { SCOPE_MUTANTS } from './scope.ts';
import { SEED_STATE_MUTANTS } from './seed-state.ts';
import { SESSION_MUTANTS } from './session.ts';
import { SQL_LEDGER_MUTANTS } from './sql-ledger.ts';
import { STRAY_FILE_MUTANTS } from './stray-files.ts';
import { WORLD_MODEL_MUTANTS } from './world-model.ts';

/** Every built-in mutant. A survivor of the suite is a missing case. */
export const MUTANTS: readonly Mutant[] = [
  ...SCOPE_MUTANTS,
  ...BINDING_MUTANTS,
  ...NAMING_MUTANTS,
  ...EXECUTION_MUTANTS,
  ...EXECUTION_ID_MUTANTS,
  ...ROLE_MUTANTS,
  ...AGENT_MUTANTS,
  ...DURABILITY_MUTANTS,
  ...CRASH_ORDERING_MUTANTS,
  ...COMMIT_DURABILITY_MUTANTS,
  ...SESSION_MUTANTS,
  ...WORLD_MODEL_MUTANTS,
  ...FINGERPRINT_MUTANTS,
  ...CLEAN_ROOM_MUTANTS,
  ...SEED_STATE_MUTANTS,
  ...STRAY_FILE_MUTANTS,
  ...LOCAL_TIME_MUTANTS,
  ...READING_MUTANTS,
  ...CACHE_MUTANTS,
  // Judged in the current edition, on its layout cases (mutant.ts: edition, areas).
  ...CURRENT_VM_LOG_MUTANTS,
  ...CURRENT_LAYOUT_MUTANTS,
  ...RENDER_MUTANTS,
  ...CURRENT_SQL_MUTANTS,
  ...SQL_LEDGER_MUTANTS,
];

/** The mutant harness with no bug at all: it must pass everything the reference passes, or no kill means anything. */
export const CONTROL: Mutant = mutant('control', 'none: the unmutated backend, built the way every mutant is', {});

/** The control of the sqlite mutants judged past v0: the sqlite mutant harness with no bug. */
export const SQLITE_CONTROL: Mutant = sqliteControl();

/** The control of the postgres mutants judged past v0: the pg-mem mutant harness with no bug. */
export const POSTGRES_CONTROL: Mutant = postgresMutant(
  'postgres-control',
  'none: the unmutated postgres backend on pg-mem, built the way every postgres mutant is',
  undefined,
  { edition: 'current', areas: [] },
);

/** The control of each kind of mutant, by the backend it is a mutant of. */
export const CONTROLS: Record<NonNullable<Mutant['reference']>, Mutant> = {
  filesystem: CONTROL,
  sqlite: SQLITE_CONTROL,
  postgres: POSTGRES_CONTROL,
};
