import type { Edition } from '../../core/editions.ts';
import {
  checkVersion,
  ensureSchema,
  needsSchema,
  SqliteFile,
  type Database,
  type DbKind,
  type SqliteEngine,
} from '../../sqlite/index.ts';

/**
 * Opens a database file of the store. One that exists unmarked (made by the sqlite3 CLI from the text's DDL, or by an
 * older toolkit) is adopted once in `edition`'s schema; one of the other edition's columns is refused (E_FORMAT).
 */
export async function openAdopted(
  path: string,
  kind: DbKind,
  engine: SqliteEngine | undefined,
  edition: Edition,
): Promise<SqliteFile> {
  const file = await SqliteFile.open(path, { validate: checkVersion, engine });
  if (file.exists() && (await file.read(needsSchema)))
    await file.write((db: Database) => ensureSchema(db, kind, path, edition));
  return file;
}
