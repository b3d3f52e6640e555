import { existsSync, readFileSync } from 'node:fs';
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

function mustBeTorn(size: number, rel: string): void {
  if (size === 0 || size % TORN_BLOCK !== 0)
    throw new ProseError('E_CORRUPT', `${rel} does not end with a newline`, {
      location: { file: rel },
      hint: 'a receipt ledger is only appended to; restore it from the last good copy',
    });
}
