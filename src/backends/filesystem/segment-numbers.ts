import { readdirSync, statSync, utimesSync } from 'node:fs';
import { parseSegmentFileName } from '../../core/numbering.ts';
import { RACY_MS, sameStat, statKey, type StatKey } from './file-memo.ts';

/** How far back our own create stamps the agent directory's mtime (as state-md-file.ts stamps state.md's). */
const STAMP_AGE_MS = 2 * RACY_MS;

/**
 * The highest segment number in each agent directory this process appended to, so an append does not read the
 * whole directory (decision fs-segment-number-cache). After our own create the directory's mtime is stamped
 * STAMP_AGE_MS back; any later entry made or removed there, by anyone, sets it to that moment's clock, so while a
 * stat still shows our stamp (same inode, size, mtime and ctime) no name was added and the number holds. Any other
 * stat reads the directory again.
 */
export class SegmentNumbers {
  private readonly seen = new Map<string, { stat: StatKey; last: number }>();

  constructor(private readonly width: number) {}

  /** The highest number of `agent`'s segments in `dir` (0 when none). */
  last(dir: string, agent: string): number {
    const hit = this.seen.get(dir);
    if (hit !== undefined) {
      const st = statSync(dir, { throwIfNoEntry: false });
      if (st !== undefined && sameStat(hit.stat, st)) return hit.last;
      this.seen.delete(dir);
    }
    let last = 0;
    for (const f of readdirSync(dir)) {
      const n = parseSegmentFileName(agent, f, this.width);
      if (n !== undefined && n > last) last = n;
    }
    return last;
  }

  /**
   * Our create of segment `n` in `dir` succeeded: stamp the directory and remember `n` as its highest when the
   * stamp is still there. An entry made during this append (between its look and the stamp) is the one a stat
   * cannot show; a writer numbering as the seed does made `n` or `n + 1` then, which exclusive creation steps past.
   */
  created(dir: string, n: number): void {
    this.seen.delete(dir);
    const stamp = (Date.now() - STAMP_AGE_MS) / 1000;
    try {
      utimesSync(dir, stamp, stamp);
    } catch {
      return; // a directory we may not stamp is read again on every append
    }
    const st = statSync(dir, { throwIfNoEntry: false });
    if (st !== undefined && Math.abs(st.mtimeMs - stamp * 1000) < 1) this.seen.set(dir, { stat: statKey(st), last: n });
  }

  clear(): void {
    this.seen.clear();
  }
}
