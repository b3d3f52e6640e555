import { EventLog } from '../../core/event-log.ts';
import { queryRows, queryValue, type Database } from '../../sqlite/index.ts';
import { rowToEvent, type StoredRow } from './event-rows.ts';

/** A run's execution log as one connection last read it, and the row id where that read stopped. */
interface Cached {
  /** PRAGMA data_version when it was read: another connection's commit (any process, any writer) moves it. */
  version: number;
  lastId: number;
  /** Appended to only; a read of the whole table (another connection committed) starts a new one. */
  log: EventLog;
  /** The row id of each frame-enter (by execution id) and parallel-start (by id), for parent_id. */
  frames: Map<number, number>;
  parallels: Map<string, number>;
}

/**
 * Per connection (a reopened connection, a private snapshot copy, another file: another key). The cache is only
 * used when `data_version` says no other connection committed since it was read; this connection's own commits are
 * appends of ours (the store never updates or deletes a row of `execution`), which the `id > lastId` read picks up.
 */
const caches = new WeakMap<Database, Cached>();

const COLUMNS = 'id, statement_index, statement_text, status, error_message, metadata';

/**
 * The run's execution log in row order (rows that are not events of ours are skipped), reading only the rows
 * added since this connection last read it, unless another connection committed meanwhile: then all of it.
 * Call it inside a transaction (SqliteFile.read/write), so the version and the rows are of one state.
 */
export function cachedEvents(db: Database): Cached {
  const version = Number(queryValue(db, 'PRAGMA data_version'));
  let c = caches.get(db);
  if (!c || c.version !== version) {
    c = { version, lastId: 0, log: new EventLog(), frames: new Map(), parallels: new Map() };
    caches.set(db, c);
  }
  const rows = queryRows(db, `SELECT ${COLUMNS} FROM execution WHERE id > ? ORDER BY id`, [
    c.lastId,
  ]) as unknown as (StoredRow & { id: number })[];
  for (const r of rows) {
    const e = rowToEvent(r);
    c.lastId = Number(r.id);
    if (e === undefined) continue;
    c.log.append(e);
    if (e.type === 'frame-enter') c.frames.set(e.executionId, c.lastId);
    else if (e.type === 'parallel-start') c.parallels.set(e.id, c.lastId);
  }
  return c;
}
