import type { IMemoryDb } from 'pg-mem';

/**
 * The part of pg-mem's table object the watches use: its private change hooks, the ones its own foreign keys use,
 * which its typed API does not name (the cache specs are what notice an upgrade that drops them). pg-mem calls
 * `onBeforeChange` for every row any connection inserts, updates or deletes.
 */
export interface HookedTable<Row> {
  onBeforeChange(columns: 'all', handler: (old: Row | null, neu: Row | null) => void): { unsubscribe(): void };
  onTruncate(handler: () => void): { unsubscribe(): void };
}

/** Table `name` of schema openprose as pg-mem holds it now (a new object when it was dropped and made again), or null. */
export function memTable<Row>(mem: IMemoryDb, name: string): HookedTable<Row> | null {
  try {
    return mem.getSchema('openprose').getTable(name, true) as unknown as HookedTable<Row> | null;
  } catch {
    return null;
  }
}
