import type { IMemoryDb } from 'pg-mem';
import { memTable } from './mem-table-hooks.ts';

/** How often one key of a table has changed, under an epoch that a truncate or a new table moves. */
export interface RowStamp {
  readonly epoch: number;
  readonly count: number;
}

/**
 * Counts every change any writer makes to one table, per key (a group, such as a run, and a member in it, such as a
 * binding's name), so a cached row can be checked without a query. `undefined`: the storage cannot tell (no watch
 * on this engine, or no table); query.
 */
export interface RowWatch {
  stamp(group: string, member: string): RowStamp | undefined;
  /** Every member of `group` changed so far and its count, for a cache that reads a group whole (others: 0). */
  counts(group: string): ReadonlyMap<string, number>;
}

/** A row's key: the group and the member in it that a change of the row moves. */
type KeyOf = (row: Record<string, unknown>) => readonly [group: string, member: string];

const watches = new WeakMap<IMemoryDb, Map<string, RowWatch>>();

/** Bindings, by run and name. */
export function memBindingWatch(mem: IMemoryDb): RowWatch {
  return memRowWatch(mem, 'bindings', (r) => [String(r.run_id), String(r.name)]);
}

/** An agent's segments, by the agent's key (segmentGroup) alone. */
export function memSegmentWatch(mem: IMemoryDb): RowWatch {
  return memRowWatch(mem, 'agent_segments', (r) => [
    segmentGroup([r.agent_name, r.scope, r.run_id, r.path].map((v) => (v ?? null) as string | null)),
    '',
  ]);
}

/** Receipts, by run and node. */
export function memReceiptWatch(mem: IMemoryDb): RowWatch {
  return memRowWatch(mem, 'receipt', (r) => [String(r.run_id), String(r.node)]);
}

/** One agent's key as a group: name, scope, run and (v0) path, an absent path as NULL. */
export function segmentGroup(key: readonly (string | null)[]): string {
  return JSON.stringify([key[0] ?? null, key[1] ?? null, key[2] ?? null, key[3] ?? null]);
}

/**
 * The watch of one table of one pg-mem database, made once and kept with it: pg-mem calls the hook for every row
 * any connection inserts, updates or deletes (a rolled-back change too, which only costs a query). Nothing outside
 * this process writes to pg-mem, so nothing is missed.
 */
function memRowWatch(mem: IMemoryDb, table: string, keyOf: KeyOf): RowWatch {
  let tables = watches.get(mem);
  if (!tables) watches.set(mem, (tables = new Map()));
  let watch = tables.get(table);
  if (!watch) tables.set(table, (watch = new MemRowWatch(mem, table, keyOf)));
  return watch;
}

const NONE: ReadonlyMap<string, number> = new Map();

class MemRowWatch implements RowWatch {
  private readonly groups = new Map<string, Map<string, number>>();
  private epoch = 0;
  private table: unknown;

  constructor(
    private readonly mem: IMemoryDb,
    private readonly name: string,
    private readonly keyOf: KeyOf,
  ) {}

  stamp(group: string, member: string): RowStamp | undefined {
    if (!this.watching()) return undefined;
    return { epoch: this.epoch, count: this.groups.get(group)?.get(member) ?? 0 };
  }

  counts(group: string): ReadonlyMap<string, number> {
    return this.groups.get(group) ?? NONE;
  }

  /** Whether the hooks sit on the table that is there now; subscribes to a new one (and moves the epoch). */
  private watching(): boolean {
    const current = memTable<Record<string, unknown>>(this.mem, this.name);
    if (!current) return false;
    if (current === this.table) return true;
    this.table = current;
    this.epoch++;
    current.onBeforeChange('all', (old, neu) => this.changed(old, neu));
    current.onTruncate(() => this.epoch++);
    return true;
  }

  private changed(old: Record<string, unknown> | null, neu: Record<string, unknown> | null): void {
    // One count per row changed: an update that keeps the key moves it by one, as an insert does.
    const a = old && this.keyOf(old);
    const b = neu && this.keyOf(neu);
    if (a) this.bump(a);
    if (b && !(a && a[0] === b[0] && a[1] === b[1])) this.bump(b);
  }

  private bump([group, member]: readonly [string, string]): void {
    let members = this.groups.get(group);
    if (!members) this.groups.set(group, (members = new Map()));
    members.set(member, (members.get(member) ?? 0) + 1);
  }
}
