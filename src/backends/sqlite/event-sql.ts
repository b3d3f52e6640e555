import type { ExecutionEvent } from '../../core/model.ts';
import { encodeWtf8, execute, queryValue, type Database } from '../../sqlite/index.ts';
import { cachedEvents } from './event-cache.ts';
import { eventToRow, type EventRow } from './event-rows.ts';

/**
 * The run's execution log in row order (rows that are not events of ours are skipped): the connection's append-only
 * log (event-cache.ts, no copy), which reads only the rows added since, unless another connection committed.
 */
export function eventsOf(db: Database): readonly ExecutionEvent[] {
  return cachedEvents(db).log.events;
}

/**
 * One INSERT (event-rows.ts), parent_id the row of the frame or parallel the event belongs to: from the
 * connection's cache of the log, brought up to date first, or (a parent it does not know) looked up in the table.
 */
export function insertEvent(db: Database, event: ExecutionEvent): void {
  const r = eventToRow(event);
  let parentId: number | null = null;
  if (r.parent) {
    const known = cachedEvents(db);
    const id =
      r.parent.event === 'frame-enter' ? known.frames.get(r.parent.executionId) : known.parallels.get(r.parent.id);
    parentId = id ?? lookUpParent(db, r.parent);
  }
  execute(
    db,
    `INSERT INTO execution (statement_index, statement_text, status, started_at, completed_at, error_message, parent_id, metadata)
          VALUES (?, CAST(? AS TEXT), ?, datetime('now'), ${r.completed ? "datetime('now')" : 'NULL'}, CAST(? AS TEXT), ?, ?)`,
    [r.statement_index, text(r.statement_text), r.status, text(r.error_message), parentId, JSON.stringify(r.metadata)],
  );
}

/** The latest row of that frame or parallel, searched in the table (a scan: only for a parent the log lacks). */
function lookUpParent(db: Database, parent: NonNullable<EventRow['parent']>): number | null {
  const [key, value] =
    parent.event === 'frame-enter' ? ['$.execution_id', parent.executionId] : ['$.parallel_id', parent.id];
  const found = queryValue(
    db,
    `SELECT id FROM execution WHERE json_extract(metadata, '$.event') = ? AND json_extract(metadata, '${key}') = ? ORDER BY id DESC LIMIT 1`,
    [parent.event, value],
  );
  return found === undefined ? null : Number(found);
}

// Statement texts and messages may hold lone surrogates; metadata is JSON, which escapes them.
const text = (s: string | null) => (s === null ? null : encodeWtf8(s));
