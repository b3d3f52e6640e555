import type { Edition } from '../../core/editions.ts';
import { ProseError } from '../../core/errors.ts';
import { CORE_TABLES, DDL, SCHEMA_VERSION } from './ddl.ts';
import { CURRENT_DDL, CURRENT_SCHEMA_VERSION, CURRENT_TABLES } from './ddl-current.ts';
import type { PgDb } from './pg-db.ts';
import { PgError } from './pg-error.ts';

const missingRelation = (err: unknown) =>
  err instanceof PgError &&
  (err.sqlState === '42P01' || err.sqlState === '3F000' || /does not exist|schema not found/i.test(err.message));

/** What each edition's schema is made of. */
const SCHEMAS = {
  v0: { ddl: DDL, version: SCHEMA_VERSION, tables: CORE_TABLES },
  current: { ddl: CURRENT_DDL, version: CURRENT_SCHEMA_VERSION, tables: CURRENT_TABLES },
} as const;

interface Marker {
  version: string;
  /** The edition whose DDL made the schema; a marker without the key predates editions: v0. */
  edition: string;
}

/** The stored marker, `null` when there is no marker table. */
async function readMarker(db: PgDb): Promise<Marker | null> {
  try {
    const rows = await db.query<{ key: string; value: string }>(
      `SELECT key, value FROM openprose.x_prose_meta WHERE key IN ('schema_version', 'edition')`,
    );
    const get = (k: string) => rows.find((r) => r.key === k)?.value;
    return { version: get('schema_version') ?? '(none)', edition: get('edition') ?? 'v0' };
  } catch (err) {
    if (missingRelation(err)) return null;
    throw err;
  }
}

/** Our tables that exist in schema openprose (probed one by one: pg-mem has no information_schema.schemata). */
async function presentTables(db: PgDb, tables: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const t of tables) {
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
export async function ensureSchema(db: PgDb, edition: Edition = 'v0'): Promise<'created' | 'present'> {
  const want = SCHEMAS[edition];
  const marker = await readMarker(db);
  if (marker !== null && marker.version === want.version && marker.edition !== edition) {
    // Each edition names its columns differently (docs/postgres.md): one schema cannot serve both.
    throw new ProseError(
      'E_CORRUPT',
      `schema openprose was made for the ${marker.edition} edition (openprose.x_prose_meta); this run uses the ${edition} edition`,
      {
        location: { field: 'openprose.x_prose_meta' },
        hint: `give each edition its own database, or open this one in the ${marker.edition} edition`,
      },
    );
  }
  if (marker?.version === want.version) return 'present';
  if (marker !== null) {
    throw new ProseError(
      'E_CORRUPT',
      `schema openprose has version ${JSON.stringify(marker.version)} (openprose.x_prose_meta); ` +
        `this prose-state needs version ${want.version}`,
      {
        location: { field: 'openprose.x_prose_meta' },
        hint:
          'use a fresh database, or drop the old schema (DROP SCHEMA openprose CASCADE) after saving what you need; ' +
          'prose-state never migrates or overwrites it',
      },
    );
  }
  const found = await presentTables(db, want.tables);
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
    await db.atomic(want.ddl.map((sql) => ({ sql })));
    return 'created';
  } catch (err) {
    // Another process may have created it at the same moment: what counts is what is there now.
    const now = await readMarker(db).catch(() => null);
    if (now?.version === want.version && now.edition === edition) return 'present';
    throw err;
  }
}
