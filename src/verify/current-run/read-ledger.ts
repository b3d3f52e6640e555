import { canonicalJson } from '../../canon/canonical-json.ts';
import type { RunSink } from './run-sink.ts';
import { readBytes } from './read-bytes.ts';
import { splitLines } from './text-lines.ts';

type Sink = RunSink;

/** A JSONL receipt ledger as read: per receipt line, its text, parsed value (undefined: not JSON) and number. */
export interface LedgerFile {
  texts: (string | undefined)[];
  values: unknown[];
  lines: number[];
}

/**
 * Reads receipts/{node}.jsonl (or a durable receipts.jsonl): one canonical JSON envelope per LF-ended line
 * (decision wm-receipts-file). Each bad line is a finding with its number; a line that is not JSON still holds
 * its place in the chain (as in the world-model verifier), a blank one does not.
 */
export function readLedger(path: string, file: string, sink: Sink): LedgerFile | undefined {
  const read = readBytes(path, sink.maxFileBytes);
  if ('refused' in read) return undefined;
  if ('error' in read) {
    sink.add('wm.receipts-file', `${file} ${read.error}`, { file });
    return undefined;
  }
  const { lines, endsWithNewline } = splitLines(read.bytes);
  if (!endsWithNewline)
    sink.add('wm.receipts-file', `${file} does not end with a newline (a torn append?)`, { file, line: lines.length });
  const ledger: LedgerFile = { texts: [], values: [], lines: [] };
  for (const { n, text } of lines) {
    if (text === undefined) sink.add('wm.receipts-file', `line ${n} is not UTF-8`, { file, line: n });
    else if (text === '') {
      sink.add('wm.receipts-file', `line ${n} is blank`, { file, line: n });
      continue;
    }
    ledger.texts.push(text);
    ledger.values.push(text === undefined ? undefined : parseLine(text, n, file, sink));
    ledger.lines.push(n);
  }
  return ledger;
}

function parseLine(text: string, n: number, file: string, sink: Sink): unknown {
  const where = { file, line: n };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return void sink.add('wm.receipts-file', `line ${n} is not JSON: ${(err as Error).message}`, where);
  }
  if (!isCanonical(value, text))
    sink.add('wm.receipts-canonical', `line ${n} is not the canonical JSON of its envelope`, where);
  return value;
}

function isCanonical(value: unknown, text: string): boolean {
  try {
    return canonicalJson(value) === text;
  } catch {
    return false; // a value canonical JSON refuses is not canonical
  }
}
