import type { RunRef } from '../../core/model.ts';
import type { RowStamp, RowWatch } from './mem-row-watch.ts';

/** The part of a binding row the cache looks at. */
export interface KeyedRow {
  name: string;
  execution_id: number | string | null;
}

/**
 * How the cache reads the storage: every row of a run, or the rows of one name in it (only those of the execution
 * ids in `ids` when given: what an uncached lookup needs).
 */
export interface BindingReads<R extends KeyedRow> {
  run(run: RunRef): Promise<R[]>;
  name(run: RunRef, name: string, ids?: readonly (number | null)[]): Promise<R[]>;
}

/** One name's rows by execution id (idKey). */
export type ById<R> = ReadonlyMap<string, R>;

interface RunRows<R> {
  epoch: number;
  /** Each name's change count when the run was read whole: a name absent then is absent while its count stays. */
  filled: ReadonlyMap<string, number>;
  names: Map<string, { count: number; rows: Map<string, R> }>;
}

/**
 * The bindings of each run as this store last read them, checked against the storage's count of changes to each
 * name (mem-row-watch.ts) before every use: unchanged, no query; changed, that name's rows again. A run is read
 * whole once, on its first lookup (pg-mem scans the table for a lookup by name, so one scan serves every later
 * name). Our own write updates the cache only when the count moved by exactly that write (`wrote`). Without a
 * watch (a real server), every lookup queries.
 */
export class BindingCache<R extends KeyedRow> {
  private readonly runs = new Map<RunRef, RunRows<R>>();

  constructor(
    private readonly watch: RowWatch | undefined,
    private readonly reads: BindingReads<R>,
  ) {}

  /** The rows of `name` in `run` by execution id: at least those of `ids` (every one when cached). */
  async rows(run: RunRef, name: string, ids: readonly (number | null)[]): Promise<ById<R>> {
    // Taken before any query: a change made while it runs moves the count, so the next call reads again.
    const stamp = this.watch?.stamp(run, name);
    if (stamp === undefined) {
      this.runs.delete(run);
      return byId(await this.reads.name(run, name, ids));
    }
    let held = this.runs.get(run);
    if (!held || held.epoch !== stamp.epoch) held = await this.fill(run, stamp.epoch);
    const hit = current(held, name, stamp.count);
    if (hit) return hit;
    const rows = byId(await this.reads.name(run, name));
    if (this.runs.get(run) === held) held.names.set(name, { count: stamp.count, rows });
    return rows;
  }

  /** The stamp to hand to `wrote` after a write of `name` (taken just before it). */
  before(run: RunRef, name: string): RowStamp | undefined {
    return this.watch?.stamp(run, name);
  }

  /**
   * Our upsert of `name` answered `row`: kept when the cache was current at `before` and the count moved by exactly
   * what our upsert makes. pg-mem counts an upsert that inserts once, and one that updates twice (the insert it
   * tried, then the update). Any other writer's change between `before` and now adds to that, unless it deleted the
   * row just before our upsert inserted it again: then our row is the name's row anyway. If pg-mem ever counts an
   * update once, the spec that resolves after a rebind without a query fails, before anything stale is kept.
   */
  wrote(run: RunRef, name: string, before: RowStamp | undefined, row: R): void {
    const held = this.runs.get(run);
    const after = this.watch?.stamp(run, name);
    if (!held || !before || !after || held.epoch !== before.epoch || after.epoch !== before.epoch) return;
    const base = current(held, name, before.count);
    const key = idKey(row.execution_id);
    if (!base || after.count !== before.count + (base.has(key) ? 2 : 1)) return;
    held.names.set(name, { count: after.count, rows: new Map(base).set(key, row) });
  }

  private async fill(run: RunRef, epoch: number): Promise<RunRows<R>> {
    const filled = new Map(this.watch!.counts(run));
    const rows = await this.reads.run(run);
    const names = new Map<string, { count: number; rows: Map<string, R> }>();
    for (const r of rows) {
      const entry = names.get(r.name) ?? { count: filled.get(r.name) ?? 0, rows: new Map() };
      entry.rows.set(idKey(r.execution_id), r);
      names.set(r.name, entry);
    }
    const held = { epoch, filled, names };
    this.runs.set(run, held);
    return held;
  }
}

/** The cached rows of `name` if they are as of `count`; `undefined` when they are stale. */
function current<R>(held: RunRows<R>, name: string, count: number): ById<R> | undefined {
  const entry = held.names.get(name);
  if (entry) return entry.count === count ? entry.rows : undefined;
  return (held.filled.get(name) ?? 0) === count ? new Map() : undefined;
}

/** A bigint column comes back as a string from a real server and as a number from pg-mem: keyed as text. */
export const idKey = (id: number | string | null) => (id === null ? 'null' : String(id));

function byId<R extends KeyedRow>(rows: readonly R[]): Map<string, R> {
  return new Map(rows.map((r) => [idKey(r.execution_id), r]));
}
