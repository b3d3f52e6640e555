import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { hostname } from 'node:os';
import { ProseError } from '../core/errors.ts';

export interface LockOptions {
  /** How long to wait for another process's lock before answering E_CONFLICT (the CLI's `.timeout`). */
  timeoutMs?: number;
}

export const DEFAULT_LOCK_TIMEOUT_MS = 30_000;
/** A lock file with no readable owner, or a break marker, older than this is left over from a crash. */
const ORPHAN_AGE_MS = 10_000;
const HOST = hostname();

/**
 * Runs `fn` while holding `{lockPath}` exclusively against every process that uses this lock (not against a real
 * sqlite3 process: it knows nothing of it). The lock is a file created atomically (a hard link, so its content is
 * complete when the name appears) holding pid, host and a nonce. A lock whose pid is dead on this host is stale and
 * is broken under a second marker file, so two waiters can never both break it and both win.
 * `fn` is synchronous on purpose: nothing can re-enter the lock while it is held.
 */
export async function withFileLock<T>(lockPath: string, fn: () => T, opts: LockOptions = {}): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const nonce = randomBytes(8).toString('hex');
  const content = `${process.pid}\n${HOST}\n${nonce}\n`;
  const deadline = Date.now() + timeoutMs;
  let wait = 1;
  for (;;) {
    if (tryCreate(lockPath, content)) break;
    const holder = readHolder(lockPath);
    if (holder !== undefined && isStale(lockPath, holder)) {
      breakStale(lockPath, holder);
      continue;
    }
    if (Date.now() >= deadline) {
      const who = holder?.pid ? `pid ${holder.pid} on ${holder.host}` : 'an unknown process';
      throw new ProseError('E_CONFLICT', `timed out after ${timeoutMs} ms waiting for the lock ${lockPath} held by ${who}`, {
        location: { file: lockPath },
        hint: 'another process is writing this database; if none is, delete the lock file',
      });
    }
    await sleep(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 25);
  }
  try {
    sweepDeadWriters(lockPath);
    return fn();
  } finally {
    release(lockPath, content);
  }
}

interface Holder { pid: number; host: string; raw: string }

function tryCreate(path: string, content: string): boolean {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const fd = openSync(tmp, 'wx', 0o644);
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new ProseError('E_IO', `cannot create lock ${path}: ${(err as Error).message}`, { location: { file: path }, cause: err });
  } finally {
    safeUnlink(tmp);
  }
}

function readHolder(path: string): Holder | undefined {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch {
    return undefined; // released between our attempt and this read: just retry
  }
  const [pid, host] = raw.split('\n');
  return { pid: Number(pid), host: host ?? '', raw };
}

function isStale(path: string, h: Holder): boolean {
  if (!Number.isSafeInteger(h.pid) || h.pid <= 0) return ageOf(path) > ORPHAN_AGE_MS;
  if (h.host !== HOST) return false; // cannot see another host's processes: wait for the timeout
  return !isAlive(h.pid);
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
    try { now = readFileSync(path, 'utf8'); } catch { now = undefined; }
    if (now === h.raw) safeUnlink(path);
  } finally {
    safeUnlink(marker);
  }
}

/**
 * Removes temp files of writers that died (SIGKILL between creating a temp file and renaming it): the lock's own
 * `{lock}.{pid}.{hex}` and atomic-write's `.tmp-{pid}-{hex}`, when that pid no longer runs. Called with the lock held.
 */
function sweepDeadWriters(lockPath: string): void {
  const dir = dirname(lockPath);
  const lockTmp = new RegExp(`^${escapeRe(basename(lockPath))}\\.(\\d+)\\.[0-9a-f]+$`);
  let names: string[];
  try { names = readdirSync(dir); } catch { return; }
  for (const name of names) {
    const m = /^\.tmp-(\d+)-[0-9a-f]+$/.exec(name) ?? lockTmp.exec(name);
    if (m && !isAlive(Number(m[1]))) safeUnlink(join(dir, name));
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function release(path: string, content: string): void {
  try {
    if (readFileSync(path, 'utf8') === content) unlinkSync(path);
  } catch {
    /* already gone: nothing to release */
  }
}

function ageOf(path: string): number {
  try { return Date.now() - statSync(path).mtimeMs; } catch { return 0; }
}

function safeUnlink(p: string): void {
  try { unlinkSync(p); } catch { /* gone */ }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
