import type { RunStatus } from '../core/model.ts';
import { bad, contValue, note, ok, type Continuation, type MarkerReading } from './marker-reading.ts';
import type { NarrationEvent } from './narration-event.ts';
import { readBinding, readBindLine, readInput, readMemory, readSegment } from './read-binding-marker.ts';
import { readCallStack, readFrameEnter, readFrameExit } from './read-frame-marker.ts';
import { readReceipt, readWorldModel } from './read-world-model-marker.ts';
import { readExecutionId, readInt, splitParams, type SplitLine } from './trailing-params.ts';
import { decodeValue, readJsonString, readToken } from './value-codec.ts';

export type { Continuation, MarkerReading };

/** The seed's marker table (in-context.md "The Narration Protocol"), plus `[CallStack]` and the store's extensions. */
export const VERBOSE_MARKERS = [
  'Program',
  'Position',
  'Binding',
  'Input',
  'Output',
  'Import',
  'Success',
  'Warning',
  'Parallel',
  'Loop',
  'Pipeline',
  'Try',
  'Flow',
  'Frame+',
  'Frame-',
  'CallStack',
  'Memory',
  'Segment',
  'WorldModel',
  'Receipt',
] as const;

export type VerboseMarker = (typeof VERBOSE_MARKERS)[number];

const RUN_STATUS: Record<string, RunStatus> = {
  Complete: 'completed',
  Failed: 'failed',
  Interrupted: 'interrupted',
  Running: 'running',
};

export function readVerboseMarker(marker: VerboseMarker, text: string, cont: Continuation[]): MarkerReading {
  switch (marker) {
    case 'Program':
      return readProgram(text, cont);
    case 'Position':
      return readPosition(text);
    case 'Success':
      return readStatementLine(text, /^Statement (\d+) complete: /, 'completed') ?? note(marker, text);
    case 'Flow':
      return readStatementLine(text, /^Statement (\d+) skipped: /, 'skipped') ?? note(marker, text);
    case 'Warning':
      return readWarning(text);
    case 'Frame+':
      return readFrameEnter(text, cont);
    case 'Frame-':
      return readFrameExit(text);
    case 'CallStack':
      return readCallStack(text, cont);
    case 'Parallel':
      return readParallel(text, cont);
    case 'Loop':
      return readLoop(text);
    case 'Binding':
      return readBinding(text, cont);
    case 'Input':
      return readInput(text, cont);
    case 'Output':
      return /^output\s/.test(text) ? readBindLine(text.slice(7), 'output', cont) : note(marker, text);
    case 'Memory':
      return readMemory(text);
    case 'Segment':
      return readSegment(text, cont);
    case 'Try':
      return readTry(text);
    case 'WorldModel':
      return readWorldModel(text, cont);
    case 'Receipt':
      return readReceipt(text);
    case 'Import':
    case 'Pipeline':
      return note(marker, text);
  }
}

function readProgram(text: string, cont: Continuation[]): MarkerReading {
  const { head, params } = splitParams(text);
  const run = params.values.run;
  if (/^Program Start\b/.test(head)) {
    // The current edition's words for the same lines: the run's program is its root contract (root.prose.md).
    const either = (v0: string, current: string) => {
      const v = contValue(cont, v0);
      return v === undefined ? contValue(cont, current) : v;
    };
    const program = either('Program', 'Root');
    const programPath = either('Program path', 'Root path');
    if (program === null || programPath === null) return bad('the program or its path is not a JSON string literal');
    return ok({
      kind: 'run-start',
      ...(run ? { runId: run } : {}),
      ...(params.values.started ? { startedAt: params.values.started } : {}),
      ...(program !== undefined ? { program } : {}),
      ...(programPath !== undefined ? { programPath } : {}),
    });
  }
  if (/^Continuing run\b/.test(head))
    return run ? ok({ kind: 'run-switch', runId: run }) : bad('Continuing run names no run');
  const m = /^Program (Complete|Failed|Interrupted|Running)\b/.exec(head);
  if (m) return ok({ kind: 'run-status', status: RUN_STATUS[m[1]!]!, ...(run ? { runId: run } : {}) });
  return note('Program', text);
}

/** `[Position] Statement 3: "text" (execution_id: 2)`, or an LLM's `[Position] session "Synthesize" with context: {a, b}`. */
function readPosition(text: string): MarkerReading {
  const m = /^(?:Statement\s*(\d+)?:|Executing:)\s*/.exec(text);
  const index = m?.[1] !== undefined ? Number(m[1]) : undefined;
  const rest = m ? text.slice(m[0].length) : text;
  const st = statementText(rest);
  if (!st) return bad('statement text is not a JSON literal followed by parameters');
  const events: NarrationEvent[] = [
    { kind: 'statement', ...(index !== undefined ? { index } : {}), text: st.text, status: 'executing', ...st.extra },
  ];
  const reads = contextNames(st.text);
  if (reads.length)
    events.push({
      kind: 'read',
      names: reads,
      ...(st.extra.executionId !== undefined ? { executionId: st.extra.executionId } : {}),
    });
  return ok(...events);
}

interface StatementExtra {
  executionId?: number | null;
  error?: string;
  binds?: string;
}

/** A JSON text decodes exactly with the store's parameters after it; raw LLM text keeps everything but an execution_id list. */
function statementText(rest: string): { text: string; extra: StatementExtra } | undefined {
  if (rest.startsWith('"')) {
    const lit = readJsonString(rest, 0);
    if (lit) {
      const tail = rest.slice(lit.end);
      const sp = splitParams(tail);
      if (tail.trim() === '' || (sp.found && sp.head === '')) return { text: lit.value, extra: extraOf(sp) };
    }
  }
  const sp = splitParams(rest);
  if (sp.found && 'execution_id' in sp.params.values) return { text: sp.head, extra: extraOf(sp) };
  return { text: rest.trimEnd(), extra: {} };
}

function extraOf(sp: SplitLine): StatementExtra {
  const v = sp.params.values;
  const id = readExecutionId(v);
  return {
    ...(id !== undefined ? { executionId: id } : {}),
    ...(v.error !== undefined ? { error: v.error } : {}),
    ...(v.binds !== undefined ? { binds: v.binds } : {}),
  };
}

function readStatementLine(
  text: string,
  re: RegExp,
  status: 'completed' | 'failed' | 'skipped',
): MarkerReading | undefined {
  const m = re.exec(text);
  if (!m) return undefined;
  const st = statementText(text.slice(m[0].length));
  if (!st) return bad('statement text is not readable');
  return ok({ kind: 'statement', index: Number(m[1]), text: st.text, status, ...st.extra });
}

/** `with context: {a, b, research}` or `with context: err`: the names a session reads. */
export function contextNames(text: string): string[] {
  const m = /\bcontext:\s*(\{[^}]*\}|[\p{L}_][\p{L}\p{N}_]*(?:\s*,\s*[\p{L}_][\p{L}\p{N}_]*)*)/u.exec(text);
  if (!m) return [];
  return m[1]!
    .replace(/[{}]/g, '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => /^[\p{L}_][\p{L}\p{N}_]*$/u.test(s));
}

function readWarning(text: string): MarkerReading {
  const st = readStatementLine(text, /^Statement (\d+) failed: /, 'failed');
  if (st) return st;
  const { head, params } = splitParams(text);
  const r = /^Retry (\d+) of (\d+)$/.exec(head);
  if (r) {
    const index = readInt(params.values, 'statement');
    return ok({
      kind: 'retry',
      attempt: Number(r[1]),
      max: Number(r[2]),
      ...(index !== undefined ? { index } : {}),
      ...(params.values.error !== undefined ? { error: params.values.error } : {}),
    });
  }
  const e = /^Error(?: at statement (\d+))?: (.*)$/.exec(text);
  if (e) {
    const msg = decodeValue(e[2]!);
    return ok({ kind: 'error', ...(e[1] !== undefined ? { index: Number(e[1]) } : {}), message: msg.value });
  }
  return note('Warning', text);
}

function readParallel(text: string, cont: Continuation[]): MarkerReading {
  const { head, params } = splitParams(text.replace(/:\s*$/, ''));
  const v = params.values;
  const id = v.parallel;
  if (/^Entering parallel\b/.test(head)) {
    const n = params.flags.map((f) => /^(\d+) branch(?:es)?$/.exec(f)).find(Boolean);
    const branches: string[] = [];
    for (const c of cont) {
      const dash = /^-\s*/.exec(c.text);
      const name = dash && readToken(c.text, dash[0].length);
      if (name && /^:\s*\w+\s*$/.test(c.text.slice(name.end))) branches.push(name.value);
    }
    const strategy = v.strategy as 'all' | 'first' | 'any' | undefined;
    const onFail = v['on-fail'] as 'fail-fast' | 'continue' | 'ignore' | undefined;
    if (strategy !== undefined && !['all', 'first', 'any'].includes(strategy))
      return bad(`unknown strategy ${strategy}`);
    const count = readInt(v, 'count');
    return ok({
      kind: 'parallel-start',
      branches,
      ...(id !== undefined ? { id } : {}),
      ...(strategy ? { strategy } : {}),
      ...(n && Number(n[1]) !== branches.length ? { branchCount: Number(n[1]) } : {}),
      ...(count !== undefined ? { count } : {}),
      ...(onFail ? { onFail } : {}),
    });
  }
  const b = /^Branch (.+): (executing|completed|failed)$/.exec(head);
  if (b) {
    const name = readToken(b[1]!, 0);
    return ok({
      kind: 'branch',
      branch: name?.value ?? b[1]!,
      status: b[2] as 'executing' | 'completed' | 'failed',
      ...(id !== undefined ? { id } : {}),
    });
  }
  if (/^Parallel complete\b/.test(head)) {
    const branches: { name: string; status?: 'executing' | 'completed' | 'failed'; value?: string }[] = [];
    for (const c of cont) {
      const m = /^-\s*/.exec(c.text);
      if (!m) continue;
      const name = readToken(c.text, m[0].length);
      if (!name) continue;
      const after = c.text.slice(name.end).trim();
      if (after.startsWith('='))
        branches.push({ name: name.value, status: 'completed', value: decodeValue(after.slice(1)).value });
      else branches.push({ name: name.value, status: /failed/.test(after) ? 'failed' : 'completed' });
    }
    return ok({ kind: 'parallel-join', branches, ...(id !== undefined ? { id } : {}) });
  }
  return note('Parallel', text);
}

function readLoop(text: string): MarkerReading {
  const { head, params } = splitParams(text);
  const v = params.values;
  const id = v.loop;
  const s = /^Starting loop(?:\s+(?:until|while)\s+(.*))?$/.exec(head);
  if (s) {
    const max = readInt(v, 'max');
    const condition = s[1] === undefined ? undefined : conditionText(s[1]);
    return ok({
      kind: 'loop-start',
      ...(id !== undefined ? { id } : {}),
      ...(max !== undefined ? { max } : {}),
      ...(condition !== undefined ? { condition } : {}),
    });
  }
  const it = /^Iteration (\d+)(?: of max (\d+))?$/.exec(head);
  if (it)
    return ok({
      kind: 'loop-iteration',
      iteration: Number(it[1]),
      ...(it[2] ? { max: Number(it[2]) } : {}),
      ...(id !== undefined ? { id } : {}),
    });
  const ex = /^Loop exited:?\s*(.*)$/.exec(head);
  if (ex) {
    const reason = /max/.test(ex[1]!) ? 'max' : /break/.test(ex[1]!) ? 'break' : 'condition';
    const at = /at iteration (\d+)/.exec(ex[1]!);
    return ok({
      kind: 'loop-exit',
      reason,
      ...(at ? { iteration: Number(at[1]) } : {}),
      ...(id !== undefined ? { id } : {}),
    });
  }
  return note('Loop', text);
}

/** `**task complete**` (the seed), a JSON literal (the store) or raw text. */
export function conditionText(s: string): string {
  const t = s.trim();
  const stars = /^\*\*(.*)\*\*$/.exec(t);
  if (stars) return stars[1]!;
  return decodeValue(t).value;
}

function readTry(text: string): MarkerReading {
  if (/^Entering try/.test(text)) return ok({ kind: 'try', phase: 'try' });
  if (/^Executing catch/.test(text)) {
    const { params } = splitParams(text);
    return ok({
      kind: 'try',
      phase: 'catch',
      ...(params.values.error !== undefined ? { error: params.values.error } : {}),
    });
  }
  if (/^Executing finally/.test(text)) return ok({ kind: 'try', phase: 'finally' });
  return note('Try', text);
}
