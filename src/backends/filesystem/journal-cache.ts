import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJournal, RUN_JOURNAL, type Journal, type ParsedJournal } from './run-journal.ts';

/**
 * The last parse of each run's `execution.jsonl`: every VM event reads the journal, and parsing and checking each
 * line again made a run's events cost O(events) each. The file is read whole and its bytes compared with the ones
 * parsed before (a memory compare, far cheaper than a parse); when they are still its prefix, only the lines after
 * them are parsed. Any other change (an earlier line edited, the file cut or replaced) parses it afresh, so what is
 * returned is always what the file holds now.
 */
export class JournalCache {
  private readonly seen = new Map<string, { bytes: Buffer; parsed: ParsedJournal }>();
  /** Lines parsed since this cache was made: what the specs count to see that a read parses only new lines. */
  linesParsed = 0;

  /** The run's journal (the caller's to change), or undefined when the run has none. */
  read(runDir: string, rel: string): Journal | undefined {
    const file = join(runDir, RUN_JOURNAL);
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      this.seen.delete(file);
      return undefined;
    }
    const last = this.seen.get(file);
    const keeps =
      last !== undefined &&
      bytes.length >= last.parsed.end &&
      bytes.subarray(0, last.parsed.end).equals(last.bytes.subarray(0, last.parsed.end));
    const from = keeps ? last.parsed : undefined;
    this.seen.delete(file);
    const parsed = parseJournal(bytes, rel, from);
    this.linesParsed += parsed.lines - (from?.lines ?? 0);
    this.seen.set(file, { bytes, parsed });
    return { run: { ...parsed.journal.run }, events: [...parsed.journal.events] };
  }

  clear(): void {
    this.seen.clear();
  }
}
