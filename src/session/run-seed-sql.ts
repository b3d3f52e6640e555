import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { executeScript, SqliteFile } from '../sqlite/index.ts';

/**
 * Runs SQL on a SQLite file as the seed's VM or subagent runs it (`sqlite3 DB "..."`, sqlite.md "Database
 * Interaction"): every statement of the text, in one transaction, creating the file (and its directory, as the VM
 * does for `.prose/`) when it is missing. The conformance suite plants seed-written rows with it.
 */
export async function runSeedSql(path: string, sql: string): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  const file = await SqliteFile.open(path);
  try {
    await file.write((db) => {
      executeScript(db, sql);
    });
  } finally {
    file.close();
  }
}
