import { readFileSync } from 'node:fs';
import { DEFAULT_EDITION, EDITION_NAMES, isEdition } from '../../core/editions.ts';
import { ProseError } from '../../core/errors.ts';
import type { CapabilityReport } from '../probes/capability-report.ts';
import type { CaseResult, Counts, Outcome } from '../outcome.ts';
import type { RunHeader } from '../run-suite.ts';
import type { NotJudged } from '../edition-runs.ts';

/** One backend's part of a saved JSON Lines report, as the runner told it to the listener. */
export interface SavedRun {
  header: RunHeader;
  /** The line of the header, for errors that name the place. */
  line: number;
  capabilities?: CapabilityReport;
  results: CaseResult[];
  /** Absent when the run was cut off. */
  footer?: { counts: Counts; extra: Record<string, unknown> };
}

export interface SavedReport {
  file: string;
  runs: SavedRun[];
  /** The backends the run left out (--edition naming one they do not declare); absent from older reports. */
  notJudged: NotJudged[];
}

/**
 * Reads a JSON Lines report back into what the runner produced. Unreadable files and lines that are not the report
 * format are E_FORMAT errors naming the file and line; a cut-off run is returned without its footer, and callers
 * that need whole runs ask `requireComplete`.
 */
export function readReport(file: string): SavedReport {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ProseError('E_FORMAT', `cannot read the report ${file}: ${(err as NodeJS.ErrnoException).code ?? err}`, {
      location: { file },
      hint: 'pass a report.jsonl written by `prose-state test --reporter json` or --report-dir',
    });
  }
  const runs: SavedRun[] = [];
  const notJudged: NotJudged[] = [];
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    if (raw.trim() === '') continue;
    const line = i + 1;
    const bad = (why: string) =>
      new ProseError('E_FORMAT', why, {
        location: { file, line },
        hint: 'a report is the JSON Lines of `prose-state test --reporter json` (conformance/schema/report.schema.json)',
      });
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      // A last line without its newline is a write the kill interrupted: the run it belongs to is cut off.
      if (i === lines.length - 1) break;
      throw bad('not a JSON line');
    }
    if (rec.type === 'not-judged') notJudged.push(notJudgedRecord(rec, bad));
    else addRecord(rec, runs, line, bad);
  }
  if (!runs.length)
    throw new ProseError('E_FORMAT', `${file} holds no report (no header line)`, {
      location: { file, line: 1 },
      hint: 'pass a report.jsonl written by `prose-state test --reporter json` or --report-dir',
    });
  return { file, runs, notJudged };
}

/** A `not-judged` record, checked: the backend, an edition and the reason. */
function notJudgedRecord(rec: Record<string, unknown>, bad: (why: string) => ProseError): NotJudged {
  const { backend, edition, reason } = rec;
  if (typeof backend !== 'string' || !isEdition(edition) || typeof reason !== 'string')
    throw bad('a not-judged record needs backend, edition and reason');
  return { backend, edition, reason };
}

/** A run without its footer was cut off: using it would leave a silent hole, so it is an error naming the place. */
export function requireComplete(report: SavedReport): SavedReport {
  for (const run of report.runs)
    if (!run.footer)
      throw new ProseError(
        'E_FORMAT',
        `the run of backend ${run.header.backend.name} (header at line ${run.line}) was cut off: it has no footer`,
        {
          location: { file: report.file, line: run.line },
          hint: 'run that shard again to the end (its job was killed or timed out) and pass the new report',
        },
      );
  return report;
}

/** Adds one record to the runs read so far: a header opens a backend's run, its cases and footer go into it. */
function addRecord(
  rec: Record<string, unknown>,
  runs: SavedRun[],
  line: number,
  bad: (why: string) => ProseError,
): void {
  const run = runs.at(-1);
  const open = run && !run.footer ? run : undefined;
  switch (rec.type) {
    case 'header': {
      if (open) throw bad(`a header before the footer of backend ${open.header.backend.name}`);
      const { type: _type, ...header } = rec;
      const h = header as unknown as RunHeader;
      if (typeof h.suite?.version !== 'string' || typeof h.backend?.name !== 'string' || typeof h.seed !== 'number')
        throw bad('a header needs suite, backend and seed');
      // A report written before editions judged v0 (the only edition there was).
      if (h.edition === undefined) h.edition = DEFAULT_EDITION;
      else if (!isEdition(h.edition))
        throw bad(`a header's edition must be one of ${EDITION_NAMES.join(', ')}, not ${JSON.stringify(h.edition)}`);
      runs.push({ header: h, line, results: [] });
      break;
    }
    case 'capabilities': {
      if (!open) throw bad('a capabilities record outside a backend (no header before it)');
      const { backend, durationMs, verdicts } = rec as unknown as CapabilityReport;
      open.capabilities = { backend, durationMs, verdicts };
      break;
    }
    case 'case': {
      if (!open) throw bad('a case record outside a backend (no header before it)');
      const { type: _type, backend, id, area, title, spec, durationMs, ...outcome } = rec;
      if (typeof id !== 'string' || typeof outcome.status !== 'string') throw bad('a case record needs id and status');
      open.results.push({
        backend: backend as string,
        id,
        area: area as string,
        title: title as string,
        spec: spec as string,
        durationMs: durationMs as number,
        outcome: outcome as unknown as Outcome,
      });
      break;
    }
    case 'footer': {
      if (!open) throw bad('a footer outside a backend (no header before it)');
      const { type: _type, backend: _b, counts, ...extra } = rec;
      open.footer = { counts: counts as Counts, extra };
      break;
    }
    default:
      throw bad(`unknown record type ${JSON.stringify(rec.type)}`);
  }
}
