import { caseDatabaseName, openReadOnlyReader, probingReader } from '../../../src/backends/postgres/index.ts';
import { withDatabase } from '../../../src/backends/postgres/case-database.ts';
import type { PgDb } from '../../../src/backends/postgres/pg-db.ts';
import type { BackendEnv } from '../../../src/core/backend.ts';
import type { TestFactory } from '../../backends/postgres/engines.ts';

/** The reader verify uses: on a real server the CLI's READ ONLY transaction on the case database. */
export async function readerFor(factory: TestFactory, env: BackendEnv, label: string) {
  if (label !== 'real') return probingReader((await factory.openDb(env)) as PgDb);
  return openReadOnlyReader(withDatabase(process.env.PROSE_STATE_TEST_PG_URL!, caseDatabaseName(env.storageKey)));
}
