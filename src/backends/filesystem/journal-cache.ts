import { join } from 'node:path';
import { AppendedBytes } from './appended-bytes.ts';
import { parseJournal, RUN_JOURNAL, type Journal, type ParsedJournal } from './run-journal.ts';

/**
 * The last parse of each run's `execution.jsonl`: every VM event reads the journal, and parsing and checking each
 * line again made a run's events cost O(events) each; so did reading the file whole to compare it. A read takes only
 * the bytes appended since (appended-bytes.ts: the same inode, no shorter, its last bytes unchanged) and parses only
 * their lines onto the run's append-only log; anything else parses the file afresh into a new log, so the fold memo
 * (core/fold-memo.ts) folds a log replaced by another writer from its start (decision fs-append-only-tail).
 */
export class JournalCache {
  private readonly seen = new Map<string, { bytes: AppendedBytes; parsed?: ParsedJournal }>();
  /** Lines parsed since this cache was made: what the specs count to see that a read parses only new lines. */
  linesParsed = 0;

  /** The run's journal, or undefined when the run has none: its run record the caller's, its events read-only. */
  read(runDir: string, rel: string): Journal | undefined {
    const file = join(runDir, RUN_JOURNAL);
    let entry = this.seen.get(file);
    if (entry === undefined) this.seen.set(file, (entry = { bytes: new AppendedBytes() }));
    const got = entry.bytes.read(file);
    if (got.from === 'missing') {
      this.seen.delete(file);
      return undefined;
    }
    const before = got.from === 'end' ? entry.parsed : undefined;
    const lines = before?.lines ?? 0;
    try {
      entry.parsed = parseJournal(got.bytes, rel, before);
    } catch (err) {
      // The log may hold part of the bytes now: the next read parses the file afresh.
      this.seen.delete(file);
      throw err;
    }
    this.linesParsed += entry.parsed.lines - lines;
    return { run: { ...entry.parsed.run }, events: entry.parsed.log.events };
  }

  clear(): void {
    this.seen.clear();
  }
}
