import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkEventShape } from '../../core/check-args.ts';
import { ProseError } from '../../core/errors.ts';
import { RUN_STATUSES, type ExecutionEvent, type RunRecord, type RunStatus } from '../../core/model.ts';
import { createFileExclusive } from '../../io/atomic-write.ts';
import { appendLine } from './append-line.ts';

/**
 * `execution.jsonl`, our extension of the current edition's run directory (decision current-execution-log): what
 * the operation contract keeps of a run that vm.log.md has no marker for. The first line is the run record
 * (`{"run": {...}}`), then one line per append, never rewritten: `{"status": s}` or `{"event": {...}}`.
 */
export const RUN_JOURNAL = 'execution.jsonl';

export interface Journal {
  run: RunRecord;
  events: ExecutionEvent[];
}

export function createJournal(runDir: string, rec: RunRecord): void {
  const line = JSON.stringify({ run: rec });
  if (!createFileExclusive(join(runDir, RUN_JOURNAL), `${line}\n`))
    throw new ProseError('E_CONFLICT', `${RUN_JOURNAL} of run ${rec.runId} already exists`);
}

export function appendStatus(runDir: string, status: RunStatus): void {
  appendLine(join(runDir, RUN_JOURNAL), JSON.stringify({ status }));
}

export function appendJournalEvent(runDir: string, event: ExecutionEvent): void {
  appendLine(join(runDir, RUN_JOURNAL), JSON.stringify({ event }));
}

/** The journal as a value, or undefined when the run has none; a line that is not ours is E_CORRUPT at its line. */
export function readJournal(runDir: string, rel: string): Journal | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(runDir, RUN_JOURNAL));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return parseJournal(bytes, rel).journal;
}

/** A journal parsed up to byte `end` of its file (the end of its last complete line), `lines` lines in. */
export interface ParsedJournal {
  journal: Journal;
  end: number;
  lines: number;
}

/**
 * Parses the complete lines of `bytes`, or, given what an earlier parse of the same bytes' prefix found, only the
 * lines after it (journal-cache.ts). The earlier journal is not changed: the result is a new one.
 */
export function parseJournal(bytes: Buffer, rel: string, from?: ParsedJournal): ParsedJournal {
  const start = from?.end ?? 0;
  const end = bytes.lastIndexOf(0x0a) + 1;
  const lines =
    end > start
      ? bytes
          .subarray(start, end - 1)
          .toString('utf8')
          .split('\n')
      : [];
  const fail = (n: number, message: string): never => {
    throw new ProseError('E_CORRUPT', message, {
      location: { file: rel, line: n },
      hint: `${RUN_JOURNAL} is appended by the backend only; restore it from the last good copy`,
    });
  };
  const first = from?.lines ?? 0;
  const journal: Journal = from
    ? { run: { ...from.journal.run }, events: [...from.journal.events] }
    : { run: parseRun(lines[0], fail), events: [] };
  for (let i = from ? 0 : 1; i < lines.length; i++) readLine(lines[i]!, first + i + 1, journal, fail);
  return { journal, end: Math.max(end, start), lines: first + lines.length };
}

type Fail = (line: number, message: string) => never;

function parseLine(text: string | undefined, n: number, fail: Fail): Record<string, unknown> {
  if (text === undefined) return fail(n, 'the run record line is missing');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail(n, `line ${n} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.keys(value).length !== 1)
    return fail(n, `line ${n} is not one {"run"|"status"|"event": ...} record`);
  return value as Record<string, unknown>;
}

function parseRun(text: string | undefined, fail: Fail): RunRecord {
  const r = parseLine(text, 1, fail).run as Partial<RunRecord> | undefined;
  const ok =
    r !== undefined &&
    typeof r.runId === 'string' &&
    typeof r.program === 'string' &&
    (r.programPath === undefined || typeof r.programPath === 'string') &&
    isStatus(r.status) &&
    typeof r.startedAt === 'string';
  if (!ok) return fail(1, 'line 1 is not the run record {"run": {runId, program, status, startedAt}}');
  return { ...r } as RunRecord;
}

function readLine(text: string, n: number, journal: Journal, fail: Fail): void {
  const rec = parseLine(text, n, fail);
  if ('status' in rec) {
    if (!isStatus(rec.status)) fail(n, `unknown run status ${JSON.stringify(rec.status)}`);
    journal.run.status = rec.status as RunStatus;
  } else if ('event' in rec) {
    try {
      journal.events.push(checkEventShape(rec.event));
    } catch (err) {
      fail(n, `line ${n} is not an event: ${(err as Error).message}`);
    }
  } else fail(n, `line ${n} is not a status or an event record`);
}

function isStatus(s: unknown): s is RunStatus {
  return typeof s === 'string' && (RUN_STATUSES as readonly string[]).includes(s);
}
