import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { ProseError } from '../../core/errors.ts';
import { createFileExclusive } from '../../io/atomic-write.ts';
import { appendLine } from './append-line.ts';

/**
 * Page cache writeback and disks keep a block whole, so a crash tears an append only where a 4 KiB block of the
 * file ends (the block model of decision crash-state-model): a ledger whose last line has no newline and whose
 * size is a multiple of this is an append a crash cut short, which was never acknowledged (decision
 * fs-ledger-append).
 */
const TORN_BLOCK = 4096;

/**
 * Appends one receipt line to a JSONL ledger (receipts/{node}.jsonl, a durable receipts.jsonl): a new ledger is
 * created whole, an existing one gets one write of the line and an fsync (append-line.ts), so a receipt costs the
 * same however long the chain is. A torn last line left by a crash is dropped first; any other ledger not ending
 * in a newline was cut or edited, and is E_CORRUPT.
 */
export function appendLedger(file: string, rel: string, receiptJson: string): void {
  if (!existsSync(file) && createFileExclusive(file, `${receiptJson}\n`)) return;
  appendLine(file, receiptJson, (size) => mustBeTorn(size, rel));
}

/**
 * The receipt lines of a ledger's bytes, a torn last line (see TORN_BLOCK) left out. An empty file is [] for a
 * durable ledger and E_CORRUPT for a run's (`emptyIsCorrupt`): the run's is created with its first receipt.
 */
export function ledgerLines(bytes: Uint8Array, rel: string, emptyIsCorrupt = false): string[] {
  if (bytes.length === 0 && !emptyIsCorrupt) return [];
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
  if (text.endsWith('\n')) return text.slice(0, -1).split('\n');
  mustBeTorn(bytes.length, rel);
  const end = text.lastIndexOf('\n');
  return end < 0 ? [] : text.slice(0, end).split('\n');
}

/** A ledger read from disk, [] when it does not exist. */
export function readLedger(file: string, rel: string, emptyIsCorrupt = false): string[] {
  try {
    return ledgerLines(readFileSync(file), rel, emptyIsCorrupt);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** How much of a ledger's end is read at a time when only its last receipt is wanted (a receipt is ~1 KiB). */
const TAIL_CHUNK = 16 * 1024;

/**
 * The last receipt of a ledger, read from its end only, so a head costs the same however long the chain is; the
 * rules of `ledgerLines` (a torn last line left out, a cut one E_CORRUPT). undefined when it holds no receipt.
 */
export function lastLedgerLine(file: string, rel: string, emptyIsCorrupt = false): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0 && !emptyIsCorrupt) return undefined;
    let tail = Buffer.alloc(0);
    let from = size;
    // Read back until the tail holds the newline ending the last complete line and the one before it (or the start).
    for (;;) {
      const end = tail.lastIndexOf(0x0a);
      if (end >= 0 && (newlineBefore(tail, end) >= 0 || from === 0)) break;
      if (from === 0) break;
      const n = Math.min(TAIL_CHUNK, from);
      const chunk = Buffer.alloc(n);
      readSync(fd, chunk, 0, n, from - n);
      from -= n;
      tail = Buffer.concat([chunk, tail]);
    }
    if (size === 0 || tail[tail.length - 1] !== 0x0a) mustBeTorn(size, rel);
    const end = tail.lastIndexOf(0x0a);
    if (end < 0) return undefined;
    return tail.subarray(newlineBefore(tail, end) + 1, end).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The last newline before byte `at` of `buf`, or -1 (lastIndexOf would read a negative offset from the end). */
function newlineBefore(buf: Buffer, at: number): number {
  return at > 0 ? buf.lastIndexOf(0x0a, at - 1) : -1;
}

function mustBeTorn(size: number, rel: string): void {
  if (size === 0 || size % TORN_BLOCK !== 0)
    throw new ProseError('E_CORRUPT', `${rel} does not end with a newline`, {
      location: { file: rel },
      hint: 'a receipt ledger is only appended to; restore it from the last good copy',
    });
}
