import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkEventShape } from '../../core/check-args.ts';
import { ProseError } from '../../core/errors.ts';
import { EventLog } from '../../core/event-log.ts';
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
  /** In order; read-only (a cached journal hands out its append-only log's own list, journal-cache.ts). */
  events: readonly ExecutionEvent[];
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
  const parsed = parseJournal(bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1), rel);
  return { run: parsed.run, events: parsed.log.events };
}

/** A journal as parsed so far: its run record, its events in an append-only log, and how many lines it has read. */
export interface ParsedJournal {
  run: RunRecord;
  log: EventLog;
  lines: number;
}

/**
 * Parses `bytes`, complete lines only (each ends with a newline). Without `into` they are a whole journal, the run
 * record first; with it, the lines appended after those `into` has read, added to it in place (journal-cache.ts),
 * so a caller whose parse failed must drop `into`: it may hold some of the lines.
 */
export function parseJournal(bytes: Buffer, rel: string, into?: ParsedJournal): ParsedJournal {
  const lines =
    bytes.length > 0
      ? bytes
          .subarray(0, bytes.length - 1)
          .toString('utf8')
          .split('\n')
      : [];
  const fail = (n: number, message: string): never => {
    throw new ProseError('E_CORRUPT', message, {
      location: { file: rel, line: n },
      hint: `${RUN_JOURNAL} is appended by the backend only; restore it from the last good copy`,
    });
  };
  const journal = into ?? { run: parseRun(lines[0], fail), log: new EventLog(), lines: 1 };
  const first = into ? 0 : 1;
  for (let i = first; i < lines.length; i++) readLine(lines[i]!, journal.lines + i - first + 1, journal, fail);
  journal.lines += lines.length - first;
  return journal;
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

function readLine(text: string, n: number, journal: ParsedJournal, fail: Fail): void {
  const rec = parseLine(text, n, fail);
  if ('status' in rec) {
    if (!isStatus(rec.status)) fail(n, `unknown run status ${JSON.stringify(rec.status)}`);
    journal.run.status = rec.status as RunStatus;
  } else if ('event' in rec) {
    try {
      journal.log.append(checkEventShape(rec.event));
    } catch (err) {
      fail(n, `line ${n} is not an event: ${(err as Error).message}`);
    }
  } else fail(n, `line ${n} is not a status or an event record`);
}

function isStatus(s: unknown): s is RunStatus {
  return typeof s === 'string' && (RUN_STATUSES as readonly string[]).includes(s);
}
