import type { ExecutionEvent, RunRef } from '../../core/model.ts';
import { sameStamp, type LogStamp, type LogWatch } from './log-watch.ts';
import type { PgDb } from './pg-db.ts';

interface Cached {
  stamp: LogStamp;
  lastId: number;
  events: ExecutionEvent[];
  /** Moved by every update, so a read that waited can tell the cache changed under it. */
  updates: number;
}

type EventRow = { id: number; metadata: ExecutionEvent | string };

/**
 * Each run's execution log as this store last read it, checked against the storage's own change count (log-watch.ts)
 * before every use: unchanged, no query; only rows added past every id, only those rows (`id > last`); anything
 * else (an UPDATE from psql, a DELETE, a truncate), the whole log again. The cache hands out the same event objects
 * each time, so the shared semantics fold only what is new (core/fold-memo.ts). Without a watch, every read is whole.
 */
export class EventLogCache {
  private readonly runs = new Map<RunRef, Cached>();

  constructor(private readonly watch: LogWatch | undefined) {}

  async read(db: PgDb, run: RunRef): Promise<ExecutionEvent[]> {
    // Taken before the query: a change made while it runs moves the stamp, so the next call reads again.
    const stamp = this.watch?.stamp(run);
    if (stamp === undefined) {
      this.runs.delete(run);
      return (await readRows(db, run, 0)).map(toEvent);
    }
    const held = this.runs.get(run);
    const base = held && held.stamp.rewritten === stamp.rewritten ? held : undefined;
    if (base && sameStamp(base.stamp, stamp)) return base.events.slice();
    const seen = held?.updates;
    const rows = await readRows(db, run, base?.lastId ?? 0);
    const added = rows.map(toEvent);
    // Another read of this run updated the cache while this one waited: answer, and leave the cache to it.
    if (this.runs.get(run) !== held || held?.updates !== seen) return [...(base?.events ?? []), ...added];
    const c = base ?? { stamp, lastId: 0, events: [], updates: 0 };
    for (const e of added) c.events.push(e);
    if (rows.length) c.lastId = Number(rows[rows.length - 1]!.id);
    c.stamp = stamp;
    c.updates++;
    this.runs.set(run, c);
    // A copy: the caller's array is its own (the event objects are shared, and no reader changes them).
    return c.events.slice();
  }
}

function readRows(db: PgDb, run: RunRef, after: number): Promise<EventRow[]> {
  return db.query<EventRow>(`SELECT id, metadata FROM openprose.execution WHERE run_id = $1 AND id > $2 ORDER BY id`, [
    run,
    after,
  ]);
}

function toEvent(r: EventRow): ExecutionEvent {
  return (typeof r.metadata === 'string' ? JSON.parse(r.metadata) : r.metadata) as ExecutionEvent;
}
