import { ProseError } from '../../core/errors.ts';
import { callStack, type StateView } from '../../core/execution-log.ts';
import { foldIncrementally } from '../../core/fold-memo.ts';
import type { ExecutionEvent, RunRecord, RunStatus } from '../../core/model.ts';
import { RUN_STATUSES } from '../../core/model.ts';
import { checkEventShape } from '../../core/check-args.ts';
import { GrowingBytes } from './growing-bytes.ts';
import { RunPaths } from './run-paths.ts';
import { parseSeedStateMd } from './seed-state-md.ts';
import type { StateDoc } from './state-doc.ts';

export type { StateDoc };

/**
 * `state.md`, the seed's annotated execution state (filesystem.md "state.md"), written by the VM only.
 * The seed sections (Execution Trace, Active Constructs, Index, Call Stack) are rendered from an `## Event Log`
 * section of one JSON event per line, our extension: it is what the backend reads back, so the rendered sections
 * never disagree with it (docs/decisions.md `state-md-event-log`).
 */
export interface IndexEntries {
  bindings: { name: string; kind: string; executionId: number | null }[];
  agents: { name: string; scope: string; path: string }[];
}

/**
 * Text from callers (ids, block names, statement text) shown on one line of a human section: line breaks and
 * table pipes are escaped, so nothing a caller writes can start a heading or a section of its own.
 */
const oneLine = (s: string) =>
  s.replace(/\\/g, '\\\\').replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/\|/g, '\\|');

export function renderStateMd(doc: StateDoc, index: IndexEntries): string {
  return new StateMdRenderer().render(doc, index);
}

/**
 * Renders state.md again and again for one run whose log only grows: the trace annotations and the event log's
 * text are extended by the events past those rendered before (the same objects, checked one by one; any other log
 * starts afresh), and each Index row's line is made once per row object, so a render costs the concatenation of
 * what it writes, not a walk over every event (decision fs-state-md-rewrite-cost).
 */
export class StateMdRenderer {
  private events: ExecutionEvent[] = [];
  private trace = new TraceFold();
  /** The event log's lines, kept encoded: at 10,000 events re-encoding them was a third of a render. */
  private log = new GrowingBytes();

  render(doc: StateDoc, index: IndexEntries): string {
    return Buffer.concat(this.bytes(doc, index)).toString('utf8');
  }

  /**
   * The file's bytes in pieces, written one after another: what render returns, the event log neither encoded
   * nor copied again (valid until the next call).
   */
  bytes(doc: StateDoc, index: IndexEntries): Buffer[] {
    this.extend(doc.events);
    const state = foldIncrementally(doc.events);
    const preamble = [
      ...headerLines(doc),
      '## Execution Trace',
      '',
      '```prose',
      ...this.trace.lines(),
      '```',
      '',
      ...activeConstructLines(state),
      ...indexLines(index),
      ...callStackLines(state),
      '',
      '## Event Log',
      '',
    ].join('\n');
    // The count closes the file, so a cut that drops whole event lines is seen, not read as a shorter history.
    const tail = Buffer.from(`\n<!-- ${doc.events.length} events -->\n`, 'utf8');
    return [Buffer.from(`${preamble}\n`, 'utf8'), this.log.view(), tail];
  }

  private extend(events: readonly ExecutionEvent[]): void {
    const same = events.length >= this.events.length && this.events.every((e, i) => events[i] === e);
    if (!same) {
      this.events = [];
      this.trace = new TraceFold();
      this.log = new GrowingBytes();
    }
    const added = events.slice(this.events.length);
    for (const e of added) this.trace.add(e);
    this.log.append(added.map((e) => `${eventLine(e)}\n`).join(''));
    this.events.push(...added);
  }
}

function headerLines(doc: StateDoc): string[] {
  return [
    '# Execution State',
    '',
    `run: ${doc.runId}`,
    `program: ${oneLine(doc.programPath)}`,
    `status: ${doc.status}`,
    `started: ${doc.started}`,
    `updated: ${doc.updated}`,
    '',
  ];
}

function activeConstructLines(state: StateView): string[] {
  const out = ['## Active Constructs', ''];
  for (const [id, p] of Object.entries(state.parallels)) {
    out.push(`### Parallel (${oneLine(id)})`, '', `- strategy: ${p.strategy}${p.joined ? ' (joined)' : ''}`);
    for (const [b, s] of Object.entries(p.branches)) out.push(`- ${oneLine(b)}: ${s === 'completed' ? 'complete' : s}`);
    out.push('');
  }
  for (const [id, l] of Object.entries(state.loops)) {
    out.push(
      `### Loop (${oneLine(id)})`,
      '',
      `- status: ${l.exited ? `exited (${l.exitReason})` : l.iteration === 0 ? 'not yet entered' : 'running'}`,
      `- iteration: ${l.iteration}/${l.max ?? '∞'}`,
      '',
    );
  }
  return out;
}

function indexLines(index: IndexEntries): string[] {
  const out = [
    '## Index',
    '',
    '### Bindings',
    '',
    '| Name | Kind | Path | Execution ID |',
    '|------|------|------|--------------|',
  ];
  for (const b of index.bindings) out.push(indexRow(b));
  out.push('', '### Agents', '', '| Name | Scope | Path |', '|------|-------|------|');
  for (const a of index.agents) out.push(`| ${oneLine(a.name)} | ${a.scope} | ${oneLine(a.path)} |`);
  return out;
}

/** Index rows come from a memo that hands back the same object while its binding file is unchanged. */
const indexRows = new WeakMap<IndexEntries['bindings'][number], string>();
function indexRow(b: IndexEntries['bindings'][number]): string {
  let line = indexRows.get(b);
  if (line === undefined) {
    const path = oneLine(RunPaths.bindingFile(b.name, b.executionId));
    line = `| ${oneLine(b.name)} | ${b.kind} | bindings/${path} | ${b.executionId ?? '(root)'} |`;
    indexRows.set(b, line);
  }
  return line;
}

function callStackLines(state: StateView): string[] {
  return [
    '',
    '## Call Stack',
    '',
    '| execution_id | block | depth | status | parent |',
    '|--------------|-------|-------|--------|--------|',
    ...callStack(state).map(
      (f) => `| ${f.executionId} | ${oneLine(f.block)} | ${f.depth} | ${f.status} | ${f.parent ?? '(root)'} |`,
    ),
  ];
}

function eventLine(e: ExecutionEvent): string {
  return `- ${JSON.stringify(e)}`;
}

/** One line per statement index, annotated with its latest status (filesystem.md "Status annotations"). */
class TraceFold {
  private readonly latest = new Map<number, { text: string; note: string }>();
  private readonly retry = new Map<number, string>();

  add(e: ExecutionEvent): void {
    if (e.type === 'retry') this.retry.set(e.index, `# <-- RETRYING (attempt ${e.attempt}/${e.max})`);
    if (e.type !== 'statement') return;
    const first = oneLine(e.text.split('\n')[0]!);
    const note =
      e.status === 'executing'
        ? (this.retry.get(e.index) ?? '# <-- EXECUTING')
        : e.status === 'completed'
          ? '# (complete)'
          : e.status === 'failed'
            ? `# <-- FAILED${e.error ? `: ${oneLine(e.error.split('\n')[0]!)}` : ''}`
            : '# (skipped)';
    this.latest.set(e.index, { text: first, note });
  }

  lines(): string[] {
    return [...this.latest.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => `${v.text.padEnd(44)} ${v.note}`);
  }
}

type Fail = (line: number, message: string) => never;

export function parseStateMd(text: string, file: string): StateDoc {
  const lines = text.split('\n');
  const fail: Fail = (line, message) => {
    throw new ProseError('E_CORRUPT', message, {
      location: { file, line },
      hint: 'state.md is written by the VM; restore it from the last good copy',
    });
  };
  if (lines[0] !== '# Execution State') fail(1, 'state.md does not start with "# Execution State"');
  // Ours always has a `status:` header line and the event log; without both it is the seed's own state.md, as a VM
  // following filesystem.md writes it (decision seed-state-md). Ours without its log was cut short, and says so below.
  const headerEnd = lines.indexOf('', 2);
  const ours = lines.slice(2, headerEnd === -1 ? undefined : headerEnd).some((l) => l.startsWith('status: '));
  if (!ours && !lines.includes('## Event Log')) return parseSeedStateMd(text, file);
  const header = parseHeader(lines, fail);
  const logAt = lines.lastIndexOf('## Event Log');
  if (logAt === -1) fail(lines.length, 'state.md has no "## Event Log" section');
  return {
    runId: header.run!,
    programPath: unOneLine(header.program!),
    status: header.status as RunStatus,
    started: header.started!,
    updated: header.updated!,
    events: parseEventLog(lines, logAt, fail),
  };
}

/** The `key: value` lines after the title, up to the first blank line; every key of ours must be there. */
function parseHeader(lines: string[], fail: Fail): Record<string, string> {
  const header: Record<string, string> = {};
  for (let i = 2; i < lines.length && lines[i] !== ''; i++) {
    const m = /^([a-z_]+): (.*)$/.exec(lines[i]!);
    if (!m) fail(i + 1, `malformed header line ${JSON.stringify(lines[i])}`);
    header[m![1]!] = m![2]!;
  }
  for (const key of ['run', 'program', 'status', 'started', 'updated'])
    if (header[key] === undefined) fail(3, `state.md header has no "${key}:"`);
  if (!(RUN_STATUSES as readonly string[]).includes(header.status!))
    fail(5, `unknown run status ${JSON.stringify(header.status)}`);
  return header;
}

/** The events after `## Event Log`, one JSON event a line, up to the count that closes the file. */
function parseEventLog(lines: string[], logAt: number, fail: Fail): ExecutionEvent[] {
  const events: ExecutionEvent[] = [];
  let declared: number | undefined;
  for (let j = logAt + 1; j < lines.length; j++) {
    const line = lines[j]!;
    if (line === '') continue;
    const end = /^<!-- (\d+) events -->$/.exec(line);
    if (end) {
      declared = Number(end[1]);
      if (lines.slice(j + 1).some((l) => l !== '')) fail(j + 2, 'text after the event count that closes state.md');
      break;
    }
    events.push(parseEventLine(line, j + 1, fail));
  }
  if (declared === undefined) fail(lines.length, 'state.md ends without its event count: the file was cut short');
  if (declared !== events.length) fail(lines.length, `state.md declares ${declared} events but holds ${events.length}`);
  return events;
}

function parseEventLine(line: string, lineNo: number, fail: Fail): ExecutionEvent {
  if (!line.startsWith('- ')) fail(lineNo, `event log line does not start with "- "`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(line.slice(2));
  } catch {
    fail(lineNo, 'event log line is not JSON');
  }
  try {
    return checkEventShape(parsed);
  } catch (err) {
    return fail(lineNo, `event log line is not an event: ${(err as Error).message}`);
  }
}

function unOneLine(s: string): string {
  return s.replace(/\\(\\|r|n|\|)/g, (_, c: string) => (c === 'r' ? '\r' : c === 'n' ? '\n' : c));
}

/** A new run's state.md: its header, no events, empty Index tables (v0 filesystem.md "`state.md`"). */
export function initialStateMd(rec: RunRecord): string {
  const doc: StateDoc = {
    runId: rec.runId,
    programPath: rec.programPath ?? 'program.prose',
    status: rec.status,
    started: rec.startedAt,
    updated: rec.startedAt,
    events: [],
  };
  return renderStateMd(doc, { bindings: [], agents: [] });
}
