import { EventLog } from '../../core/event-log.ts';
import type { ExecutionEvent, RunRef } from '../../core/model.ts';
import { sameStamp, type LogStamp, type LogWatch } from './log-watch.ts';
import type { PgDb } from './pg-db.ts';

interface Cached {
  stamp: LogStamp;
  lastId: number;
  /** Only grows while the cache holds it: a log read whole again is a new one (core/event-log.ts). */
  log: EventLog;
  /** Moved by every update, so a read that waited can tell the cache changed under it. */
  updates: number;
}

type EventRow = { id: number; metadata: ExecutionEvent | string };

/**
 * Each run's execution log as this store last read it, checked against the storage's own change count (log-watch.ts)
 * before every use: unchanged, no query; only rows added past every id, only those rows (`id > last`); anything
 * else (an UPDATE from psql, a DELETE, a truncate), the whole log again, into a new log. The cache hands out its log's
 * own list, so the shared semantics fold only what is new with no compare or copy per call (core/fold-memo.ts,
 * issue 35). Without a watch, every read is whole.
 */
export class EventLogCache {
  private readonly runs = new Map<RunRef, Cached>();

  constructor(private readonly watch: LogWatch | undefined) {}

  async read(db: PgDb, run: RunRef): Promise<readonly ExecutionEvent[]> {
    // Taken before the query: a change made while it runs moves the stamp, so the next call reads again.
    const stamp = this.watch?.stamp(run);
    if (stamp === undefined) {
      this.runs.delete(run);
      return (await readRows(db, run, 0)).map(toEvent);
    }
    const held = this.runs.get(run);
    const base = held && held.stamp.rewritten === stamp.rewritten ? held : undefined;
    if (base && sameStamp(base.stamp, stamp)) return base.log.events;
    const seen = held?.updates;
    const rows = await readRows(db, run, base?.lastId ?? 0);
    const added = rows.map(toEvent);
    // Another read of this run updated the cache while this one waited: answer, and leave the cache to it.
    if (this.runs.get(run) !== held || held?.updates !== seen) return [...(base?.log.events ?? []), ...added];
    const c = base ?? { stamp, lastId: 0, log: new EventLog(), updates: 0 };
    for (const e of added) c.log.append(e);
    if (rows.length) c.lastId = Number(rows[rows.length - 1]!.id);
    c.stamp = stamp;
    c.updates++;
    this.runs.set(run, c);
    return c.log.events;
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
