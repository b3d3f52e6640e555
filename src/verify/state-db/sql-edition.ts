import { renamedToCurrent, type Edition } from '../../core/editions.ts';
import { AGENTS_REQUIRED, EXECUTION_COLUMNS, queryRows, type Database } from '../../sqlite/index.ts';

const V0: Record<string, string[]> = {
  run: ['id', 'program_path', 'program_source', 'started_at', 'updated_at', 'status', 'state_mode'],
  execution: EXECUTION_COLUMNS,
  bindings: [
    'name',
    'execution_id',
    'kind',
    'value',
    'source_statement',
    'created_at',
    'updated_at',
    'attachment_path',
  ],
  ...AGENTS_REQUIRED,
  imports: ['alias', 'source_url', 'fetched_at', 'inputs_schema', 'outputs_schema'],
};

/** Each edition's core columns (sqlite.md "Core Schema"); tables may have more, and x_ tables may be added. */
export const CORE_COLUMNS: Record<Edition, Record<string, string[]>> = {
  v0: V0,
  current: renamedToCurrent(V0),
};

/** Columns only the current text has: one present makes the file a current-edition state.db. */
const CURRENT_ONLY: [string, string][] = [
  ['run', 'root_path'],
  ['run', 'root_source'],
  ['bindings', 'binding'],
  ['imports', 'source_ref'],
];

/**
 * The edition a state.db's columns name (docs/editions.md "Telling a tree's edition": run.program_path and
 * bindings.kind are v0, run.root_path and bindings.binding current). Any current-only column decides, so a file
 * mixing the two is judged current and each v0 name left in it is db.column-missing of its current twin.
 */
export function sqlEditionOf(db: Database): Edition {
  return sqlEditionWhy(db).edition;
}

/** The edition and the column that decided it (`table.column`), or why it is v0: for the report's edition line. */
export function sqlEditionWhy(db: Database): { edition: Edition; evidence: string } {
  for (const [table, column] of CURRENT_ONLY) {
    const rows = queryRows(db, 'SELECT 1 FROM pragma_table_info(?) WHERE name = ?', [table, column]);
    if (rows.length > 0) return { edition: 'current', evidence: `column ${table}.${column} (current sqlite.md)` };
  }
  return {
    edition: 'v0',
    evidence: `no column of the current sqlite.md (${CURRENT_ONLY.map((c) => c.join('.')).join(', ')})`,
  };
}
