import type { Row, StorageView } from '../../core/backend.ts';
import { ProseError } from '../../core/errors.ts';
import type { PgDb } from './pg-db.ts';
import type { SqlValue } from './sql-literal.ts';

const READ_ONLY = /^\s*(select|with|values|table|show)\b/i;

/**
 * The read-only view layout expectations query, and apart from it the connection a scripted subagent writes with.
 * Values come back the same on both engines: timestamps as ISO strings (pg gives Date objects), int8 as numbers (a
 * real server sends them as text; pg-url-factory sets the parser) and JSONB as parsed values.
 */
export function readOnlyView(db: PgDb, projectDir?: string): StorageView {
  return {
    kind: 'postgres',
    // Attachments are files under the project's run directories (decision pg-attachments).
    ...(projectDir ? { dirs: { projectDir } } : {}),
    async query(sql: string, params: unknown[] = []): Promise<Row[]> {
      // One statement that reads: a trailing semicolon is fine, a second statement is not.
      const body = sql.trim().replace(/;\s*$/, '');
      if (!READ_ONLY.test(body) || body.includes(';')) {
        throw new ProseError(
          'E_USAGE',
          'the storage view runs one read-only statement (SELECT, WITH, VALUES, TABLE or SHOW)',
          {
            hint: 'layout expectations may read openprose.* tables but never change them',
          },
        );
      }
      const rows = await db.query(body, params as SqlValue[]);
      return rows.map(normalizeRow);
    },
    // The subagent's own connection: session.md has subagents write their rows themselves.
    async subagentScript(script: string): Promise<void> {
      await db.query(script);
    },
  };
}

export function normalizeRow(row: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) out[k] = v instanceof Date ? v.toISOString() : v;
  return out;
}
