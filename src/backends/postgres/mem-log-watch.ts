import type { IMemoryDb } from 'pg-mem';
import type { LogStamp, LogWatch } from './log-watch.ts';
import { memTable } from './mem-table-hooks.ts';

interface ExecutionRow {
  id: number;
  run_id: string;
}

const watches = new WeakMap<IMemoryDb, LogWatch>();

/**
 * The watch of one pg-mem database, made once and kept with it: the engine calls it for every row any connection
 * inserts, updates or deletes (our store, a raw query on another pool of the same database, a rolled-back statement:
 * counted too, which only costs a read). Nothing outside this process can write to pg-mem, so nothing is missed.
 */
export function memLogWatch(mem: IMemoryDb): LogWatch {
  let watch = watches.get(mem);
  if (!watch) watches.set(mem, (watch = new MemLogWatch(mem)));
  return watch;
}

class MemLogWatch implements LogWatch {
  private readonly runs = new Map<string, { added: number; rewritten: number }>();
  /** Bumped for a truncate or a replaced table: every run's log is then read whole again. */
  private epoch = 0;
  private table: unknown;
  /** The largest id the table has held: an insert past it is an append that `id > last read` finds. */
  private maxId = 0;

  constructor(private readonly mem: IMemoryDb) {}

  stamp(run: string): LogStamp | undefined {
    if (!this.watching()) return undefined;
    const r = this.runs.get(run);
    return { added: r?.added ?? 0, rewritten: (r?.rewritten ?? 0) + this.epoch };
  }

  /** Whether the hooks sit on the table that is there now; subscribes to a new one (and bumps the epoch). */
  private watching(): boolean {
    const current = memTable<ExecutionRow>(this.mem, 'execution');
    if (!current) return false;
    if (current === this.table) return true;
    this.table = current;
    this.epoch++;
    const [row] = this.mem.public.many('SELECT max(id) AS m FROM openprose.execution') as { m: number | null }[];
    this.maxId = Number(row?.m ?? 0);
    current.onBeforeChange('all', (old, neu) => this.changed(old, neu));
    current.onTruncate(() => this.epoch++);
    return true;
  }

  private changed(old: ExecutionRow | null, neu: ExecutionRow | null): void {
    if (old === null && neu !== null && Number(neu.id) > this.maxId) {
      this.maxId = Number(neu.id);
      this.counts(neu.run_id).added++;
      return;
    }
    if (old) this.counts(old.run_id).rewritten++;
    if (neu) this.counts(neu.run_id).rewritten++;
  }

  private counts(run: string): { added: number; rewritten: number } {
    let r = this.runs.get(run);
    if (!r) this.runs.set(run, (r = { added: 0, rewritten: 0 }));
    return r;
  }
}
