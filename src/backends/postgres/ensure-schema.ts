import { ProseError } from '../../core/errors.ts';
import { CORE_TABLES, DDL, SCHEMA_VERSION } from './ddl.ts';
import type { PgDb } from './pg-db.ts';
import { PgError } from './pg-error.ts';

const missingRelation = (err: unknown) =>
  err instanceof PgError &&
  (err.sqlState === '42P01' || err.sqlState === '3F000' || /does not exist|schema not found/i.test(err.message));

/** The stored schema version, `null` when there is no marker table. */
async function readVersion(db: PgDb): Promise<string | null> {
  try {
    const rows = await db.query<{ value: string }>(
      `SELECT value FROM openprose.x_prose_meta WHERE key = 'schema_version'`,
    );
    return rows[0]?.value ?? '(none)';
  } catch (err) {
    if (missingRelation(err)) return null;
    throw err;
  }
}

/** Our tables that exist in schema openprose (probed one by one: pg-mem has no information_schema.schemata). */
async function presentTables(db: PgDb): Promise<string[]> {
  const out: string[] = [];
  for (const t of CORE_TABLES) {
    try {
      await db.query(`SELECT 1 FROM openprose.${t} LIMIT 0`);
      out.push(t);
    } catch (err) {
      if (!missingRelation(err)) throw err;
    }
  }
  return out;
}

/**
 * Makes sure the database holds schema openprose at our version: creates it when absent (all tables in one
 * atomic write, so a failure leaves nothing behind), accepts it at our version, and refuses a schema made by
 * another version or by something else, saying what to do. Answers whether it created the schema.
 */
export async function ensureSchema(db: PgDb): Promise<'created' | 'present'> {
  const version = await readVersion(db);
  if (version === SCHEMA_VERSION) return 'present';
  if (version !== null) {
    throw new ProseError(
      'E_CORRUPT',
      `schema openprose has version ${JSON.stringify(version)} (openprose.x_prose_meta); ` +
        `this prose-state needs version ${SCHEMA_VERSION}`,
      {
        location: { field: 'openprose.x_prose_meta' },
        hint:
          'use a fresh database, or drop the old schema (DROP SCHEMA openprose CASCADE) after saving what you need; ' +
          'prose-state never migrates or overwrites it',
      },
    );
  }
  const found = await presentTables(db);
  if (found.length > 0) {
    throw new ProseError(
      'E_CORRUPT',
      `schema openprose already holds ${found.join(', ')} but no openprose.x_prose_meta version marker: ` +
        "it was not made by prose-state (the spec's own DDL, or another tool)",
      {
        location: { field: 'openprose' },
        hint: 'point the URL at a fresh database, or drop that schema (DROP SCHEMA openprose CASCADE) if nothing in it is needed',
      },
    );
  }
  try {
    await db.atomic(DDL.map((sql) => ({ sql })));
    return 'created';
  } catch (err) {
    // Another process may have created it at the same moment: what counts is what is there now.
    if ((await readVersion(db).catch(() => null)) === SCHEMA_VERSION) return 'present';
    throw err;
  }
}
