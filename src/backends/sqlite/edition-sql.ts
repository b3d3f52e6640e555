import { editionLayout, type Edition } from '../../core/editions.ts';

/**
 * The statements that differ between the two editions' sqlite.md "Core Schema" (docs/sqlite.md shows the tables side
 * by side): the run row's program columns, the bindings column naming input/output/let/const, the imports row. Every
 * other statement of the store is the same text in both.
 */
export interface EditionSql {
  edition: Edition;
  /** The run directory's copy of the program: program.prose (v0) or root.prose.md (current "Database Location"). */
  programFile: string;
  /** id, path, source, started_at, updated_at, status. */
  insertRun: string;
  /** The first run row as id, program_path, program_source, started_at, status. */
  selectRun: string;
  /** The bindings column holding input, output, let or const. */
  kindColumn: 'kind' | 'binding';
  /** alias, the import's source: a resolved dependency cache row. */
  insertImport: string;
}

const V0: EditionSql = {
  edition: 'v0',
  programFile: editionLayout('v0').programFile,
  insertRun:
    'INSERT INTO run (id, program_path, program_source, started_at, updated_at, status) VALUES (?, ?, CAST(? AS TEXT), ?, ?, ?)',
  selectRun: 'SELECT id, program_path, program_source, started_at, status FROM run ORDER BY rowid LIMIT 1',
  kindColumn: 'kind',
  insertImport: "INSERT OR REPLACE INTO imports (alias, source_url, fetched_at) VALUES (?, ?, datetime('now'))",
};

// Current sqlite.md "Core Schema": run(root_path, root_source), bindings(binding), imports(source_ref, resolved_at).
const CURRENT: EditionSql = {
  edition: 'current',
  programFile: editionLayout('current').programFile,
  insertRun:
    'INSERT INTO run (id, root_path, root_source, started_at, updated_at, status) VALUES (?, ?, CAST(? AS TEXT), ?, ?, ?)',
  selectRun:
    'SELECT id, root_path AS program_path, root_source AS program_source, started_at, status FROM run ORDER BY rowid LIMIT 1',
  kindColumn: 'binding',
  insertImport: "INSERT OR REPLACE INTO imports (alias, source_ref, resolved_at) VALUES (?, ?, datetime('now'))",
};

export function editionSql(edition: Edition): EditionSql {
  return edition === 'current' ? CURRENT : V0;
}

/** The binding upsert, keyed as the corrected primary key (decisions sqlite-bindings-key, sqlite-current-bindings-key). */
export function upsertBindingSql(kind: EditionSql['kindColumn']): string {
  return `INSERT INTO bindings (name, execution_id, ${kind}, value, source_statement, attachment_path, updated_at)
              VALUES (?, ?, ?, CAST(? AS TEXT), CAST(? AS TEXT), ?, datetime('now'))
              ON CONFLICT (name, IFNULL(execution_id, -1)) DO UPDATE SET ${kind} = excluded.${kind}, value = excluded.value,
                source_statement = excluded.source_statement, attachment_path = excluded.attachment_path, updated_at = excluded.updated_at`;
}
