import { readFileSync } from 'node:fs';
import { writeFileAtomic, type FileData } from '../../io/atomic-write.ts';
import { FileMemo, RACY_MS } from './file-memo.ts';
import { EventLog } from '../../core/event-log.ts';
import { parseStateMd, type StateDoc } from './state-md.ts';

/**
 * How far in the past our own writes stamp state.md's mtime. Any later write to the file, by anyone, sets its mtime
 * to the clock of that moment, at least this much later less one clock tick (RACY_MS bounds a tick), so it can
 * never leave the stamp in place: a file still carrying our stamp holds what we wrote.
 */
const STAMP_AGE_MS = 2 * RACY_MS;

/**
 * A document as the cache holds it: its event log only grows (an EventLog, so readers share it and the fold memo keeps
 * its fold: a read of a long run folds nothing again, issue 35); a file read again gets a new log.
 */
export type SharedDoc = Omit<StateDoc, 'events'> & { readonly log: EventLog };

function sharedDoc({ events, ...fields }: StateDoc): SharedDoc {
  const log = new EventLog();
  for (const e of events) log.append(e);
  return { ...fields, log };
}

/**
 * Each run's state.md as last read or written by this process, so a call does not read and parse the whole run's
 * document again (decision fs-state-md-cache). The cached document is used only while the file's inode,
 * size, mtime and ctime are what they were, and only when that key cannot hide a change: the file carries the
 * mtime stamp of our own write (STAMP_AGE_MS), or it was already older than a clock tick when it was read (git's
 * "racy clean" rule, file-memo.ts). Another process's write (ours replace the file, a VM's may edit it in place)
 * changes the key and is read on the next call.
 */
export class StateMdFile {
  private readonly memo = new FileMemo<SharedDoc>();

  /** The run's document, shared with this cache (its log only grows), or undefined when the file does not exist. */
  read(file: string, rel: string): SharedDoc | undefined {
    return this.memo.get(file, () => {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        return undefined;
      }
      return sharedDoc(parseStateMd(text, rel));
    });
  }

  /**
   * Replaces the file with `text` (its bytes; one atomic write), remembered as `doc` when the stamp shows it is still ours;
   * `doc` becomes the cache's (the caller changes it no more). A write that throws leaves nothing remembered.
   */
  write(file: string, text: FileData, doc: SharedDoc): void {
    const stamp = Date.now() - STAMP_AGE_MS;
    this.memo.forget(file);
    writeFileAtomic(file, text, { mtimeMs: stamp });
    this.memo.rememberStamped(file, stamp, doc);
  }

  /** The next read of `file` reads it again (a change of ours that was not written). */
  forget(file: string): void {
    this.memo.forget(file);
  }

  clear(): void {
    this.memo.clear();
  }
}
