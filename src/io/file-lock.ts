import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { hostname } from 'node:os';
import { ProseError } from '../core/errors.ts';
import { procStatFields } from '../core/proc-stat.ts';

export interface LockOptions {
  /** How long to wait for another process's lock before answering E_CONFLICT (the CLI's `.timeout`). */
  timeoutMs?: number;
}

export const DEFAULT_LOCK_TIMEOUT_MS = 30_000;
/** A lock file with no readable owner, or a break marker, older than this is left over from a crash. */
const ORPHAN_AGE_MS = 10_000;
/** How long a writer about to take the lock lets waiting readers in first. */
const READER_GRACE_MS = 20;
const HOST = hostname();
/** Told apart per acquisition without a random draw each time (the pid alone repeats across acquisitions). */
const PROCESS_NONCE = randomBytes(6).toString('hex');
let acquisitions = 0;

/**
 * Runs `fn` while holding `{lockPath}` exclusively against every process that uses this lock (not against a real
 * sqlite3 process: it knows nothing of it), once every reader (reader-mark.ts) has left. The lock is a file created
 * with O_EXCL holding pid, host and a nonce (one directory change to take it, one to give it back: on a busy ext4
 * each costs far more than the data it holds). A lock whose pid is dead on this host is stale and is broken under a
 * second marker file, so two waiters can never both break it and both win.
 * `fn` is synchronous on purpose: nothing can re-enter the lock while it is held.
 */
export async function withFileLock<T>(lockPath: string, fn: () => T, opts: LockOptions = {}): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const content = `${process.pid}\n${HOST}\n${PROCESS_NONCE}-${++acquisitions}\n${OWN_START ?? ''}\n`;
  const deadline = Date.now() + timeoutMs;
  await letWaitingReadersIn(lockPath);
  let wait = 1;
  for (;;) {
    if (tryCreate(lockPath, content)) break;
    if ((await waitOutHolder(lockPath, deadline, timeoutMs, wait)) === 'waited') wait = Math.min(wait * 2, 25);
  }
  try {
    // New readers stay out while the lock exists; the ones already inside are waited for (their reads are short).
    for (wait = 1; ; wait = Math.min(wait * 2, 25)) {
      const reader = sweepDirectory(lockPath).reading;
      if (reader === undefined) break;
      if (Date.now() >= deadline) throw lockTimeout(lockPath, timeoutMs, undefined, `reader pid ${reader}`);
      await sleep(wait);
    }
    return fn();
  } finally {
    release(lockPath, content);
  }
}

/**
 * The lock is held by someone else: a holder whose pid is dead on this host is broken at once ('broken'); past the
 * deadline the wait ends with E_CONFLICT; otherwise sleep about `wait` ms, jittered ('waited'). Writers and
 * readers (reader-mark.ts) wait for a holder the same way.
 */
export async function waitOutHolder(
  lockPath: string,
  deadline: number,
  timeoutMs: number,
  wait: number,
): Promise<'broken' | 'waited'> {
  const holder = readHolder(lockPath);
  if (holder !== undefined && isStale(lockPath, holder)) {
    breakStale(lockPath, holder);
    return 'broken';
  }
  if (Date.now() >= deadline) throw lockTimeout(lockPath, timeoutMs, holder);
  await sleep(wait + Math.random() * wait);
  return 'waited';
}

export interface Holder {
  pid: number;
  host: string;
  /** When the holder started (the lock's fourth line), where it was known: absent in older locks. */
  start?: string;
  raw: string;
}

/** Who holds `path` now; undefined when nobody does (it was released while we looked). */
function readHolder(path: string): Holder | undefined {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const [pid, host, , start] = raw.split('\n');
  return { pid: Number(pid), host: host ?? '', start: start || undefined, raw };
}

function isStale(path: string, h: Holder): boolean {
  // No readable pid: a holder between its create and its write (microseconds), or one that died right there.
  if (!Number.isSafeInteger(h.pid) || h.pid <= 0) return ageOf(path) > ORPHAN_AGE_MS;
  if (h.host !== HOST) return false; // cannot see another host's processes: wait for the timeout
  if (!isAlive(h.pid)) return true;
  // Alive, but pids come round again (32,768 of them here, and a suite starts thousands of processes): a live
  // process that started at another time is not the holder.
  const now = h.start === undefined ? undefined : startTimeOf(h.pid);
  return now !== undefined && now !== h.start;
}

/**
 * When process `pid` started, in clock ticks since boot (field 22 of /proc/PID/stat); undefined where there is no
 * /proc or the process is gone.
 */
export function startTimeOf(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  const start = procStatFields(stat)[22 - 3];
  return start && /^\d+$/.test(start) ? start : undefined;
}

/** Removes a stale lock, but only while holding `{lock}.break` and only if it is still the stale one we judged. */
function breakStale(path: string, h: Holder): void {
  const marker = `${path}.break`;
  if (!tryCreate(marker, `${process.pid}\n${HOST}\n`)) {
    if (ageOf(marker) > ORPHAN_AGE_MS) safeUnlink(marker);
    return;
  }
  try {
    let now: string | undefined;
    try {
      now = readFileSync(path, 'utf8');
    } catch {
      now = undefined;
    }
    if (now === h.raw) safeUnlink(path);
  } finally {
    safeUnlink(marker);
  }
}

function lockTimeout(lockPath: string, timeoutMs: number, holder: Holder | undefined, who?: string): ProseError {
  who ??= holder?.pid ? `pid ${holder.pid} on ${holder.host}` : 'an unknown process';
  return new ProseError(
    'E_CONFLICT',
    `timed out after ${timeoutMs} ms waiting for the lock ${lockPath} held by ${who}`,
    {
      location: { file: lockPath },
      hint: 'another process is using this database; if none is, delete the lock file',
    },
  );
}

/**
 * Before taking the lock, a writer gives readers that are waiting for it (their mark says "2") up to
 * READER_GRACE_MS to get in: writers that commit back to back would otherwise leave them only chance gaps.
 */
async function letWaitingReadersIn(lockPath: string): Promise<void> {
  if (!readersSeen.has(lockPath)) return; // no other reader at our last look: skip the directory scan
  const until = Date.now() + READER_GRACE_MS;
  while (sweepDirectory(lockPath).waiting && Date.now() < until) await sleep(1);
}

/** Locks whose last scan found marks of other processes' readers (the filesystem backend's locks never do). */
const readersSeen = new Set<string>();

/** The name of a reader's mark: `{lock}.reader-{pid}-{n}` (reader-mark.ts: "1" reading, "2" waiting, "0" idle). */
export function readerMarkName(lockPath: string, n: number): string {
  return `${lockPath}.reader-${process.pid}-${n}`;
}

function tryCreate(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new ProseError('E_IO', `cannot create lock ${path}: ${(err as Error).message}`, {
      location: { file: path },
      cause: err,
    });
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Removes what dead processes left (atomic-write's `.tmp-{pid}-{hex}`, the lock's temp files of earlier versions,
 * reader marks) and reports the readers of other live processes: the pid of one reading now, and whether any waits.
 */
function sweepDirectory(lockPath: string): { reading?: number; waiting: boolean } {
  const dir = dirname(lockPath);
  const base = escapeRe(basename(lockPath));
  const lockTmp = new RegExp(`^${base}\\.(\\d+)\\.[0-9a-f]+$`);
  const readerMark = new RegExp(`^${base}\\.reader-(\\d+)-\\d+$`);
  const out: { reading?: number; waiting: boolean } = { waiting: false };
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  readersSeen.delete(lockPath);
  for (const name of names) {
    const reader = readerMark.exec(name);
    if (reader) {
      // Our own process reads only inside a synchronous call, never while this runs: its marks are idle.
      const pid = Number(reader[1]);
      if (pid === process.pid) continue;
      if (!isAlive(pid)) {
        safeUnlink(join(dir, name));
        continue;
      }
      const { state, start } = readMark(join(dir, name));
      if (start !== undefined && startTimeOf(pid) !== start) {
        safeUnlink(join(dir, name)); // its owner is dead and its pid came round again
        continue;
      }
      readersSeen.add(lockPath);
      if (state === 0x31) out.reading ??= pid;
      if (state === 0x32) out.waiting = true;
      continue;
    }
    const m = /^\.tmp-(\d+)-[0-9a-f]+$/.exec(name) ?? lockTmp.exec(name);
    if (m && !isAlive(Number(m[1]))) safeUnlink(join(dir, name));
  }
  return out;
}

const markBuf = Buffer.alloc(64);

/**
 * A reader's mark: its state byte ("1" reading, "2" waiting, "0" idle; 0 when it is gone or empty) and, on the next
 * line, when its owner started (absent in marks of older versions and where unknown).
 */
function readMark(mark: string): { state: number; start?: string } {
  let fd: number;
  try {
    fd = openSync(mark, 'r');
  } catch {
    return { state: 0 };
  }
  let n: number;
  try {
    n = readSync(fd, markBuf, 0, markBuf.length, 0);
  } finally {
    closeSync(fd);
  }
  if (n === 0) return { state: 0 };
  const start = markBuf.toString('latin1', 1, n).split('\n')[1];
  return { state: markBuf[0]!, start: start && /^\d+$/.test(start) ? start : undefined };
}

export function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** This process's start (Linux), written beside its pid so that a holder whose pid was reused is seen dead. */
export const OWN_START = startTimeOf(process.pid);

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function release(path: string, content: string): void {
  try {
    if (readFileSync(path, 'utf8') === content) unlinkSync(path);
  } catch {
    /* already gone: nothing to release */
  }
}

function ageOf(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

export function safeUnlink(p: string): void {
  try {
    unlinkSync(p);
  } catch {
    /* gone */
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
