import { BINDING_KINDS, type BindingKind, type BindingRecord } from '../../core/model.ts';

export interface BindingRow {
  name: string;
  execution_id: number | null;
  /** v0's column for input/output/let/const; the current edition names it `binding`. */
  kind?: string | null;
  binding?: string | null;
  value: string | null;
  source_statement: string | null;
  attachment_path: string | null;
}

/**
 * sqlite.md's "Scope Resolution Query", adapted to our frame rows: a frame is the `execution` row whose
 * metadata.event is 'frame-enter', its parent_id points at the parent frame's row, and bindings.execution_id holds
 * the frame's execution_id (a per-run counter, docs/decisions.md `execution-id`), not the row id. The walk, the
 * "prefer scoped over root" and the "prefer deeper scope" ordering are the seed's own.
 */
export const RESOLVE_SQL = `
WITH RECURSIVE scope_chain AS (
  SELECT id, parent_id, json_extract(metadata, '$.execution_id') AS frame FROM execution
  WHERE json_extract(metadata, '$.event') = 'frame-enter' AND json_extract(metadata, '$.execution_id') = :eid
  UNION ALL
  SELECT e.id, e.parent_id, json_extract(e.metadata, '$.execution_id')
  FROM execution e
  JOIN scope_chain s ON e.id = s.parent_id
)
SELECT b.* FROM bindings b
LEFT JOIN scope_chain s ON b.execution_id = s.frame
WHERE b.name = :name
  AND (b.execution_id IN (SELECT frame FROM scope_chain) OR b.execution_id IS NULL)
ORDER BY
  CASE WHEN b.execution_id IS NULL THEN 1 ELSE 0 END,
  s.id DESC NULLS LAST
LIMIT 1`;

export function bindingFromRow(r: BindingRow, kindColumn: 'kind' | 'binding' = 'kind'): BindingRecord {
  const stored = r[kindColumn];
  const kind = (BINDING_KINDS as readonly string[]).includes(String(stored)) ? (stored as BindingKind) : 'let';
  return {
    name: String(r.name),
    kind,
    value: r.value == null ? '' : String(r.value),
    executionId: r.execution_id == null ? null : Number(r.execution_id),
    ...(r.source_statement != null ? { source: String(r.source_statement) } : {}),
    ...(r.attachment_path != null ? { attached: true } : {}),
  };
}

/** A string as an SQL literal, for the seed-style location lines (`name='research'`). */
export function sqlLiteral(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}
