import type { IMemoryDb } from 'pg-mem';
import { memTable } from './mem-table-hooks.ts';

interface BindingRow {
  name: string;
  run_id: string;
}

/** How often one binding name of one run has changed, under an epoch that a truncate or a new table moves. */
export interface BindingStamp {
  readonly epoch: number;
  readonly count: number;
}

/**
 * Counts every change any writer makes to openprose.bindings, per run and name, so a cached binding can be checked
 * without a query. `undefined`: the storage cannot tell (no watch on this engine, or no table); query.
 */
export interface BindingWatch {
  stamp(run: string, name: string): BindingStamp | undefined;
  /** Every name of `run` changed so far and its count, for a cache that reads the run whole (names not in it: 0). */
  counts(run: string): ReadonlyMap<string, number>;
}

const watches = new WeakMap<IMemoryDb, BindingWatch>();

/**
 * The binding watch of one pg-mem database, made once and kept with it: pg-mem calls the hook for every row any
 * connection inserts, updates or deletes (a rolled-back change too, which only costs a query). Nothing outside this
 * process writes to pg-mem, so nothing is missed.
 */
export function memBindingWatch(mem: IMemoryDb): BindingWatch {
  let watch = watches.get(mem);
  if (!watch) watches.set(mem, (watch = new MemBindingWatch(mem)));
  return watch;
}

const NONE: ReadonlyMap<string, number> = new Map();

class MemBindingWatch implements BindingWatch {
  private readonly runs = new Map<string, Map<string, number>>();
  private epoch = 0;
  private table: unknown;

  constructor(private readonly mem: IMemoryDb) {}

  stamp(run: string, name: string): BindingStamp | undefined {
    if (!this.watching()) return undefined;
    return { epoch: this.epoch, count: this.runs.get(run)?.get(name) ?? 0 };
  }

  counts(run: string): ReadonlyMap<string, number> {
    return this.runs.get(run) ?? NONE;
  }

  /** Whether the hooks sit on the table that is there now; subscribes to a new one (and moves the epoch). */
  private watching(): boolean {
    const current = memTable<BindingRow>(this.mem, 'bindings');
    if (!current) return false;
    if (current === this.table) return true;
    this.table = current;
    this.epoch++;
    current.onBeforeChange('all', (old, neu) => this.changed(old, neu));
    current.onTruncate(() => this.epoch++);
    return true;
  }

  private changed(old: BindingRow | null, neu: BindingRow | null): void {
    // One count per row changed: an upsert's update of one key moves that key by one, as its insert would.
    if (old) this.bump(old);
    if (neu && !(old && old.run_id === neu.run_id && old.name === neu.name)) this.bump(neu);
  }

  private bump(row: BindingRow): void {
    let names = this.runs.get(row.run_id);
    if (!names) this.runs.set(row.run_id, (names = new Map()));
    names.set(row.name, (names.get(row.name) ?? 0) + 1);
  }
}
