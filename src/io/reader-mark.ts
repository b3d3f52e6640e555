import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { ProseError } from '../core/errors.ts';
import {
  DEFAULT_LOCK_TIMEOUT_MS,
  OWN_START,
  readerMarkName,
  safeUnlink,
  waitOutHolder,
  type LockOptions,
} from './file-lock.ts';

const READING = Buffer.from('1');
const IDLE = Buffer.from('0');
const WAITING = Buffer.from('2');
let marks = 0;

/**
 * A reader's mark beside a lock: `{lock}.reader-{pid}-{n}`, holding "1" while its owner reads, "2" while it waits for
 * a writer to finish, and "0" otherwise; after that byte, on a line of its own, when its owner started (Linux), so a
 * writer tells a dead owner from a live process that got its pid again.
 * It is created once and kept open, so entering and leaving a read are two 1-byte writes, not a file created and
 * removed per read (on a busy ext4 that pair cost ~0.6 ms, a rewrite ~6 us). Writers remove the marks of dead pids.
 */
export class ReaderMark {
  readonly path: string;
  private fd: number | undefined;

  constructor(readonly lockPath: string) {
    this.path = readerMarkName(lockPath, ++marks);
  }

  /** Says "reading"; false when no mark can be made there (a missing or read-only directory): read unmarked. */
  enter(): boolean {
    return this.put(READING);
  }

  /** Says "waiting for the writer": file-lock.ts gives such readers a turn before the next writer. */
  wait(): void {
    this.put(WAITING);
  }

  /** Says "done", or "waiting" when it stepped back because a writer took the lock meanwhile. */
  leave(waiting = false): void {
    if (this.fd !== undefined) writeSync(this.fd, waiting ? WAITING : IDLE, 0, 1, 0);
  }

  private put(state: Buffer): boolean {
    if (this.fd === undefined) {
      try {
        this.fd = openSync(this.path, 'w', 0o644);
        writeSync(this.fd, `${IDLE}\n${OWN_START ?? ''}\n`);
      } catch (err) {
        // No directory, or one we may not write: then no writer of ours can take the lock there either.
        if (['ENOENT', 'EACCES', 'EPERM', 'EROFS'].includes((err as NodeJS.ErrnoException).code ?? '')) return false;
        throw new ProseError('E_IO', `cannot create reader mark ${this.path}: ${(err as Error).message}`, {
          location: { file: this.path },
          cause: err,
        });
      }
    }
    writeSync(this.fd, state, 0, 1, 0);
    return true;
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    safeUnlink(this.path);
  }
}

/**
 * Runs `fn` while no process holds `{lockPath}` exclusively (file-lock.ts). The reader first marks itself
 * reading, then checks the lock is still absent (else it withdraws and waits): a writer creates the lock first and
 * reads the marks after, so one of the two always sees the other. A waiting reader says so in its mark, and the
 * next writer lets it in first. Readers never wait for each other; a stale writer lock (dead pid) is broken as a
 * writer breaks it. `fn` is synchronous, like the writer's. Pass a long-lived `mark` to avoid one per call.
 */
export async function withSharedLock<T>(
  lockPath: string,
  fn: () => T,
  opts: LockOptions & { mark?: ReaderMark } = {},
): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const mark = opts.mark ?? new ReaderMark(lockPath);
  try {
    // Readers look again sooner than writers do (at most every 4 ms): a steady stream of commits leaves short gaps.
    for (let wait = 0.5; ; wait = Math.min(wait * 2, 4)) {
      if (!existsSync(lockPath)) {
        if (!mark.enter()) return fn();
        let inside = false;
        try {
          if (!existsSync(lockPath)) {
            inside = true;
            return fn();
          }
        } finally {
          mark.leave(!inside);
        }
      } else {
        mark.wait();
      }
      await waitOutHolder(lockPath, deadline, timeoutMs, wait);
    }
  } finally {
    if (opts.mark) mark.leave();
    else mark.close();
  }
}
