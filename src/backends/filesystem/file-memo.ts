import { statSync, type Stats } from 'node:fs';

/**
 * A file's timestamps advance in clock ticks (milliseconds on most Linux file systems), so a file rewritten within
 * the tick of an earlier read can keep its size and times. A file is memoized only once it is older than this when
 * read (git's "racy clean" rule): any later rewrite then carries newer times.
 */
export const RACY_MS = 100;

/**
 * What was derived from a file or directory (a parsed binding's index line, a run's state.md, an agent directory's
 * highest segment number), reused while its inode, size, mtime and ctime are what they were when it was read or
 * written by us, so a VM event need not read it again.
 * Only a derivation the file alone determines may be memoized: a mismatch of any field re-reads the file.
 */
export class FileMemo<T> {
  private readonly entries = new Map<string, { stat: StatKey; value: T }>();

  /** The memoized value of `file`, or `read()`'s; undefined (and forgotten) when the file does not exist. */
  get(file: string, read: () => T | undefined): T | undefined {
    // Number stats: a double of milliseconds resolves well under a microsecond today, far finer than a clock tick,
    // and BigInt stats cost more than the system call (each builds four Dates).
    const st = statSync(file, { throwIfNoEntry: false });
    if (st === undefined) {
      this.entries.delete(file);
      return undefined;
    }
    const hit = this.entries.get(file);
    if (hit !== undefined && sameStat(hit.stat, st)) return hit.value;
    // Stat before read: a rewrite in between leaves the old key with the new value, which the next stat misses.
    const value = read();
    const settled = Date.now() - Math.max(st.mtimeMs, st.ctimeMs) > RACY_MS;
    if (value !== undefined && settled) this.entries.set(file, { stat: statKey(st), value });
    else this.entries.delete(file);
    return value;
  }

  /** The memoized value of `file` while its stat is unchanged, without reading it; else undefined (and forgotten). */
  held(file: string): T | undefined {
    const hit = this.entries.get(file);
    if (hit === undefined) return undefined;
    const st = statSync(file, { throwIfNoEntry: false });
    if (st !== undefined && sameStat(hit.stat, st)) return hit.value;
    this.entries.delete(file);
    return undefined;
  }

  /**
   * Memoizes `value` for `file` just written by us with its mtime stamped at `stampMs` (in the past): kept only while
   * the stat still shows that stamp, which any later write by anyone moves. Another writer between our write and
   * this stat left its own mtime, and nothing is kept.
   */
  rememberStamped(file: string, stampMs: number, value: T): void {
    this.entries.delete(file);
    const st = statSync(file, { throwIfNoEntry: false });
    if (st !== undefined && Math.abs(st.mtimeMs - stampMs) < 1) this.entries.set(file, { stat: statKey(st), value });
  }

  /** The next use of `file` reads it again. */
  forget(file: string): void {
    this.entries.delete(file);
  }

  clear(): void {
    this.entries.clear();
  }
}

/** What identifies a file's content without reading it: compared as numbers (a string key cost more than the stat). */
export interface StatKey {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

export const statKey = (st: Stats): StatKey => ({
  ino: st.ino,
  size: st.size,
  mtimeMs: st.mtimeMs,
  ctimeMs: st.ctimeMs,
});

export const sameStat = (k: StatKey, st: Stats): boolean =>
  k.ino === st.ino && k.size === st.size && k.mtimeMs === st.mtimeMs && k.ctimeMs === st.ctimeMs;
