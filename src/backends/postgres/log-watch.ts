/**
 * How the storage itself has counted changes to one run's rows of openprose.execution: rows added past every id it
 * held (`added`), and rows changed or removed in place, or ids reused (`rewritten`). Both only grow.
 */
export interface LogStamp {
  readonly added: number;
  readonly rewritten: number;
}

/**
 * Counts every change any writer makes to openprose.execution, so a cached log can be checked without reading it.
 * `undefined`: the storage cannot tell (no watch on this engine, or the table was replaced); read the log whole.
 */
export interface LogWatch {
  stamp(run: string): LogStamp | undefined;
}

export function sameStamp(a: LogStamp, b: LogStamp): boolean {
  return a.added === b.added && a.rewritten === b.rewritten;
}
