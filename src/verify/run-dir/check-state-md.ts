import { RUN_STATUSES } from '../../core/model.ts';
import { isRunId } from '../../core/run-id.ts';
import type { FindingSink } from '../kit/finding-sink.ts';
import { isIsoDateTime } from '../../core/time-format.ts';
import type { RunDirRuleId } from './rules.ts';
import { firstTable, parseStateMdDoc, section, type MdSection, type MdTable } from './state-md-doc.ts';
import { traceAnnotation } from './trace-annotation.ts';

export interface IndexBindingRow {
  name: string;
  kind: string;
  path: string;
  executionId: string;
  line: number;
}
export interface IndexAgentRow {
  name: string;
  scope: string;
  path: string;
  line: number;
}

/** What the other checks need from state.md: the Index rows and the trace's `# --> bindings/x.md` references. */
export interface StateMdFacts {
  /** Undefined when the table could not be read: then nothing is reported as missing from it. */
  bindingRows?: IndexBindingRow[];
  agentRows?: IndexAgentRow[];
  traceRefs: { path: string; line: number }[];
}

type Sink = FindingSink<RunDirRuleId>;
const FILE = 'state.md';
const BINDING_COLUMNS = ['name', 'kind', 'path', 'execution id'];
const AGENT_COLUMNS = ['name', 'scope', 'path'];
const STACK_COLUMNS = ['execution_id', 'block', 'depth', 'status'];

/**
 * Checks state.md against the seed's example (filesystem.md "state.md"). `expectRunId` is the directory name of a
 * top-level run; imports have no run id of their own in their directory name, so it is undefined there.
 */
export function checkStateMd(text: string, sink: Sink, expectRunId: string | undefined): StateMdFacts {
  const doc = parseStateMdDoc(text);
  const facts: StateMdFacts = { traceRefs: [] };
  if (doc.heading?.text !== '# Execution State') {
    sink.add(
      'state-md.heading',
      `state.md starts with ${JSON.stringify(doc.heading?.text ?? text.split('\n')[0] ?? '')}, not "# Execution State"`,
      { file: FILE, line: doc.heading?.line ?? 1 },
    );
  }
  checkHeader(doc.header, doc.badHeader, sink, expectRunId, doc.heading?.line ?? 1);
  const trace = section(doc, 'Execution Trace');
  if (!trace) sink.add('state-md.section', 'state.md has no "## Execution Trace" section', { file: FILE });
  else facts.traceRefs = checkTrace(trace, sink);
  const index = section(doc, 'Index');
  if (!index) sink.add('state-md.section', 'state.md has no "## Index" section', { file: FILE });
  else {
    facts.bindingRows = tableRows(index, 'Bindings', BINDING_COLUMNS, sink)?.map(([c, line]) => ({
      name: c[0]!,
      kind: c[1]!,
      path: c[2]!,
      executionId: c[3]!,
      line,
    }));
    facts.agentRows = tableRows(index, 'Agents', AGENT_COLUMNS, sink)?.map(([c, line]) => ({
      name: c[0]!,
      scope: c[1]!,
      path: c[2]!,
      line,
    }));
  }
  const stack = section(doc, 'Call Stack');
  if (!stack) sink.add('state-md.call-stack-missing', 'state.md has no "## Call Stack" section', { file: FILE });
  else checkCallStack(stack, sink);
  const log = section(doc, 'Event Log');
  if (log) checkEventLog(log, sink);
  return facts;
}

type HeaderField = { value: string; line: number };

function checkHeader(
  header: { key: string; value: string; line: number }[],
  bad: { text: string; line: number }[],
  sink: Sink,
  expectRunId: string | undefined,
  headingLine: number,
): void {
  for (const b of bad)
    sink.add('state-md.header', `malformed header line ${JSON.stringify(b.text)}`, { file: FILE, line: b.line });
  const seen = new Map<string, HeaderField>();
  for (const h of header) {
    if (seen.has(h.key))
      sink.add('state-md.header', `header field "${h.key}:" appears twice`, { file: FILE, line: h.line });
    else seen.set(h.key, h);
  }
  for (const key of ['run', 'program', 'started', 'updated']) {
    const h = seen.get(key);
    if (!h) sink.add('state-md.header', `state.md header has no "${key}:" line`, { file: FILE, line: headingLine });
    else if (h.value === '') sink.add('state-md.header', `"${key}:" is empty`, { file: FILE, line: h.line });
  }
  checkRunField(seen.get('run'), sink, expectRunId);
  checkTimes(seen.get('started'), seen.get('updated'), sink);
  const status = seen.get('status');
  if (status && !(RUN_STATUSES as readonly string[]).includes(status.value)) {
    sink.add('state-md.status', `status: ${JSON.stringify(status.value)} is not one of ${RUN_STATUSES.join(', ')}`, {
      file: FILE,
      line: status.line,
    });
  }
}

/** `run:` is a run id, and the directory's own when the directory names one. */
function checkRunField(run: HeaderField | undefined, sink: Sink, expectRunId: string | undefined): void {
  if (!run?.value) return;
  if (!isRunId(run.value))
    sink.add('state-md.header-format', `run: ${JSON.stringify(run.value)} is not {YYYYMMDD}-{HHMMSS}-{random6}`, {
      file: FILE,
      line: run.line,
    });
  else if (expectRunId !== undefined && run.value !== expectRunId)
    sink.add('state-md.run-mismatch', `run: ${run.value} but the directory is ${expectRunId}`, {
      file: FILE,
      line: run.line,
    });
}

/** `started:` and `updated:` are ISO date-times with a zone, and updated is not before started. */
function checkTimes(started: HeaderField | undefined, updated: HeaderField | undefined, sink: Sink): void {
  for (const [key, h] of [
    ['started', started],
    ['updated', updated],
  ] as const) {
    if (h?.value && !isIsoDateTime(h.value))
      sink.add(
        'state-md.header-format',
        `${key}: ${JSON.stringify(h.value)} is not an ISO 8601 date-time with a zone`,
        { file: FILE, line: h.line },
      );
  }
  if (
    started &&
    updated &&
    isIsoDateTime(started.value) &&
    isIsoDateTime(updated.value) &&
    Date.parse(updated.value) < Date.parse(started.value)
  ) {
    sink.add('state-md.updated-before-started', `updated: ${updated.value} is before started: ${started.value}`, {
      file: FILE,
      line: updated.line,
    });
  }
}

function checkTrace(trace: MdSection, sink: Sink): { path: string; line: number }[] {
  const open = trace.body.findIndex((l) => /^`{3,}prose\s*$/.test(l.text));
  if (open === -1) {
    sink.add('state-md.trace', 'the Execution Trace has no ```prose block', { file: FILE, line: trace.line });
    return [];
  }
  const fence = trace.body[open]!.text.replace(/prose\s*$/, '');
  const refs: { path: string; line: number }[] = [];
  let closed = false;
  for (const l of trace.body.slice(open + 1)) {
    if (l.text.trim() === fence) {
      closed = true;
      break;
    }
    const a = traceAnnotation(l.text);
    if (a?.kind === 'written') refs.push({ path: a.path, line: l.line });
    else if (a?.kind === 'unknown')
      sink.add('state-md.trace-annotation', `unknown status annotation "# ${a.text}"`, { file: FILE, line: l.line });
  }
  if (!closed)
    sink.add('state-md.trace', "the Execution Trace's ```prose block is never closed", {
      file: FILE,
      line: trace.body[open]!.line,
    });
  return refs;
}

/** Rows of the table under `### {title}`, padded to the seed's columns; a wrong header or short row is a finding. */
function tableRows(parent: MdSection, title: string, want: string[], sink: Sink): [string[], number][] | undefined {
  const sub = section(parent, title);
  if (!sub) {
    sink.add('state-md.section', `the Index has no "### ${title}" table`, { file: FILE, line: parent.line });
    return undefined;
  }
  const table = firstTable(sub.body);
  if (!checkColumns(table, want, `### ${title}`, sub.line, sink)) return undefined;
  return table!.rows.flatMap((r): [string[], number][] => {
    if (r.cells.length < want.length) {
      sink.add('state-md.table', `the ${title} row has ${r.cells.length} cells, the table ${want.length}`, {
        file: FILE,
        line: r.line,
      });
      return [];
    }
    return [[r.cells, r.line]];
  });
}

function checkColumns(table: MdTable | undefined, want: string[], what: string, line: number, sink: Sink): boolean {
  if (!table) {
    sink.add('state-md.table', `${what} has no table`, { file: FILE, line });
    return false;
  }
  const have = table.columns.slice(0, want.length).map((c) => c.toLowerCase());
  if (have.join('|') !== want.join('|')) {
    sink.add(
      'state-md.table',
      `${what} columns are | ${table.columns.join(' | ')} |, expected | ${want.join(' | ')} |`,
      { file: FILE, line: table.line },
    );
    return false;
  }
  for (const m of table.malformed)
    sink.add('state-md.table', `malformed table line ${JSON.stringify(m.text)}`, { file: FILE, line: m.line });
  return true;
}

function checkCallStack(stack: MdSection, sink: Sink): void {
  const table = firstTable(stack.body);
  if (!checkColumns(table, STACK_COLUMNS, '## Call Stack', stack.line, sink)) return;
  const hasParent = table!.columns[4]?.toLowerCase() === 'parent';
  const depthOf = new Map<string, number>();
  for (const r of table!.rows)
    if (/^[1-9]\d*$/.test(r.cells[0] ?? '') && /^[1-9]\d*$/.test(r.cells[2] ?? ''))
      depthOf.set(r.cells[0]!, Number(r.cells[2]));
  const seen = new Set<string>();
  for (const r of table!.rows) {
    const [id = '', block = '', depth = '', status = '', parent = ''] = r.cells;
    const bad = (why: string) => sink.add('state-md.call-stack', why, { file: FILE, line: r.line });
    if (!/^[1-9]\d*$/.test(id)) bad(`execution_id ${JSON.stringify(id)} is not a positive integer`);
    else if (seen.has(id)) bad(`execution_id ${id} is listed twice`);
    seen.add(id);
    if (block === '') bad('the block is empty');
    if (!/^[1-9]\d*$/.test(depth)) bad(`depth ${JSON.stringify(depth)} is not a positive integer`);
    if (status !== 'executing' && status !== 'waiting')
      bad(`status ${JSON.stringify(status)} is not executing or waiting`);
    if (!hasParent || !/^[1-9]\d*$/.test(depth)) continue;
    if (parent === '(root)') {
      if (depth !== '1') bad(`frame ${id} has parent (root) but depth ${depth}`);
    } else if (!depthOf.has(parent)) bad(`parent ${JSON.stringify(parent)} of frame ${id} is not on the stack`);
    else if (depthOf.get(parent)! + 1 !== Number(depth))
      bad(`frame ${id} has depth ${depth} but its parent ${parent} has depth ${depthOf.get(parent)}`);
  }
}

function checkEventLog(log: MdSection, sink: Sink): void {
  let events = 0;
  for (const l of log.body) {
    if (l.text.trim() === '') continue;
    // The count that closes the log (decision state-md-event-log) must match the lines above it.
    const end = /^<!-- (\d+) events -->$/.exec(l.text);
    if (end) {
      if (Number(end[1]) !== events)
        sink.add('state-md.event-log', `the event log declares ${end[1]} events but holds ${events}`, {
          file: FILE,
          line: l.line,
        });
      continue;
    }
    events += 1;
    let ok = false;
    if (l.text.startsWith('- ')) {
      try {
        const e = JSON.parse(l.text.slice(2)) as unknown;
        ok = typeof e === 'object' && e !== null && typeof (e as { type?: unknown }).type === 'string';
      } catch {
        /* reported below */
      }
    }
    if (!ok)
      sink.add('state-md.event-log', `event log line is not "- {json event}": ${JSON.stringify(l.text.slice(0, 60))}`, {
        file: FILE,
        line: l.line,
      });
  }
}
