import type { ExecutionEvent } from '../../core/model.ts';
import { encodeWtf8, execute, queryRows, queryValue, type Database } from '../../sqlite/index.ts';
import { eventToRow, rowToEvent, type StoredRow } from './event-rows.ts';

/** The run's execution log, read whole in row order (rows that are not events of ours are skipped). */
export function eventsOf(db: Database): ExecutionEvent[] {
  const rows = queryRows(
    db,
    'SELECT statement_index, statement_text, status, error_message, metadata FROM execution ORDER BY id',
  ) as unknown as StoredRow[];
  return rows.map(rowToEvent).filter((e): e is ExecutionEvent => e !== undefined);
}

/** One INSERT (event-rows.ts), parent_id looked up from the frame or parallel row the event belongs to. */
export function insertEvent(db: Database, event: ExecutionEvent): void {
  const r = eventToRow(event);
  let parentId: number | null = null;
  if (r.parent) {
    const [key, value] =
      r.parent.event === 'frame-enter' ? ['$.execution_id', r.parent.executionId] : ['$.parallel_id', r.parent.id];
    const found = queryValue(
      db,
      `SELECT id FROM execution WHERE json_extract(metadata, '$.event') = ? AND json_extract(metadata, '${key}') = ? ORDER BY id DESC LIMIT 1`,
      [r.parent.event, value],
    );
    parentId = found === undefined ? null : Number(found);
  }
  execute(
    db,
    `INSERT INTO execution (statement_index, statement_text, status, started_at, completed_at, error_message, parent_id, metadata)
          VALUES (?, CAST(? AS TEXT), ?, datetime('now'), ${r.completed ? "datetime('now')" : 'NULL'}, CAST(? AS TEXT), ?, ?)`,
    [r.statement_index, text(r.statement_text), r.status, text(r.error_message), parentId, JSON.stringify(r.metadata)],
  );
}

// Statement texts and messages may hold lone surrogates; metadata is JSON, which escapes them.
const text = (s: string | null) => (s === null ? null : encodeWtf8(s));
