import { readdirSync, utimesSync } from 'node:fs';
import { parseSegmentFileName } from '../../core/numbering.ts';
import { FileMemo, RACY_MS } from './file-memo.ts';

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
  private readonly memo = new FileMemo<number>();

  constructor(private readonly width: number) {}

  /** The highest number of `agent`'s segments in `dir` (0 when none). */
  last(dir: string, agent: string): number {
    const held = this.memo.held(dir);
    if (held !== undefined) return held;
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
    this.memo.forget(dir);
    const stamp = Date.now() - STAMP_AGE_MS;
    try {
      utimesSync(dir, stamp / 1000, stamp / 1000);
    } catch {
      return; // a directory we may not stamp is read again on every append
    }
    this.memo.rememberStamped(dir, stamp, n);
  }

  clear(): void {
    this.memo.clear();
  }
}
