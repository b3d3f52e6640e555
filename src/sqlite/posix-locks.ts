import { openSync, readSync, closeSync } from 'node:fs';

/**
 * The byte-range locks a native SQLite process (the real `sqlite3` CLI) holds on a database file, read from Linux's
 * /proc/locks, for the wasm engine (engine.ts). A wasm process takes no POSIX locks, so every lock on the file's inode
 * belongs to a native SQLite: a sqlite3, or a process of ours on the posix engine (native-lock.ts), treated alike.
 * SQLite's lock bytes (os_unix.c): PENDING at 0x40000000, RESERVED at 0x40000001, SHARED the 510 bytes after; a
 * shared lock is a READ lock on that range, an exclusive one a WRITE lock on it.
 */
export interface ForeignLocks {
  /** A native writer is in a transaction (RESERVED): its journal is live, not hot. */
  reserved: boolean;
  /** A native writer is committing or about to (PENDING or EXCLUSIVE): its pages are being written. */
  writing: boolean;
  /** A native reader holds SHARED: writing pages in place now could tear what it reads. */
  reading: boolean;
}

const PENDING = 0x40000000;
const RESERVED = PENDING + 1;
const SHARED_FIRST = PENDING + 2;
const SHARED_LAST = SHARED_FIRST + 509;
const NONE: ForeignLocks = { reserved: false, writing: false, reading: false };
const buf = Buffer.alloc(1 << 16);

/** Whether /proc/locks exists here; elsewhere (macOS, BSD) native locks are invisible and `NONE` is answered. */
let available: boolean | undefined;

/** Locks on the file with this device and inode, as `stat` gives them (device as Linux encodes st_dev). */
export function foreignLocks(dev: bigint, ino: bigint): ForeignLocks {
  const text = readProcLocks();
  if (text === undefined) return NONE;
  const id = `${hex(major(dev))}:${hex(minor(dev))}:${ino}`;
  if (!text.includes(`:${ino} `)) return NONE; // the common case: nobody locks this file
  const out = { reserved: false, writing: false, reading: false };
  for (const line of text.split('\n')) {
    // "12: POSIX  ADVISORY  WRITE 4242 fe:00:2146930 1073741825 1073741825"; a blocked waiter has an extra "->".
    const f = line.split(/\s+/).filter((t) => t !== '' && t !== '->');
    if (f.length < 8 || f[1] !== 'POSIX' || f[5] !== id) continue;
    const start = Number(f[6]);
    const end = f[7] === 'EOF' ? Number.MAX_SAFE_INTEGER : Number(f[7]);
    const write = f[3] === 'WRITE';
    const covers = (a: number, b: number) => start <= b && end >= a;
    if (covers(RESERVED, RESERVED)) out.reserved = true;
    if (write && (covers(PENDING, PENDING) || covers(SHARED_FIRST, SHARED_LAST))) out.writing = true;
    if (!write && covers(SHARED_FIRST, SHARED_LAST)) out.reading = true;
  }
  return out;
}

function readProcLocks(): string | undefined {
  if (available === false) return undefined;
  let fd: number;
  try {
    fd = openSync('/proc/locks', 'r');
  } catch {
    available = false;
    return undefined;
  }
  available = true;
  try {
    let text = '';
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null); // a seq file: read on, never at an offset
      if (n === 0) break;
      text += buf.toString('latin1', 0, n);
    }
    return text;
  } finally {
    closeSync(fd);
  }
}

// glibc's gnu_dev_major / gnu_dev_minor; /proc/locks prints both in hex, at least two digits.
const major = (dev: bigint) => ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
const minor = (dev: bigint) => (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
const hex = (n: bigint) => n.toString(16).padStart(2, '0');
