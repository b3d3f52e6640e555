import type { Edition } from '../../core/editions.ts';
import { SqliteFile } from '../../sqlite/index.ts';
import { sqlEditionWhy } from './sql-edition.ts';

/**
 * The edition a SQLite file's columns name, for the report (read-only, through the WASM engine as the check reads
 * it); a file that cannot be read is v0, nothing saying otherwise, and the check reports why it cannot be read.
 */
export async function stateDbEditionOf(path: string): Promise<{ edition: Edition; evidence: string }> {
  let file: SqliteFile | undefined;
  try {
    file = await SqliteFile.open(path, { timeoutMs: 2000, engine: 'wasm' });
    return await file.read((db) => sqlEditionWhy(db));
  } catch {
    return { edition: 'v0', evidence: 'the file could not be read, so nothing says otherwise' };
  } finally {
    file?.close();
  }
}
