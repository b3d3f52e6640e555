import { ProseError } from '../../core/errors.ts';
import type { ExecutionEvent, JoinStrategy, RunStatus } from '../../core/model.ts';
import { RUN_STATUSES } from '../../core/model.ts';
import { foldEvents } from '../../core/execution-log.ts';
import type { StateDoc } from './state-doc.ts';

/**
 * A state.md as filesystem.md's example writes it: header, annotated Execution Trace, Active Constructs, Index and
 * Call Stack, with no `## Event Log` (our extension). The events a resume needs are derived from the seed's markers
 * (docs/decisions.md `seed-state-md`): a statement per annotated trace line, numbered by its line in the trace;
 * parallels and loops from Active Constructs; open frames from the Call Stack, each the child of the row one level
 * shallower. What the text does not say gets the seed's default: a run with no `status:` is running.
 */
export function parseSeedStateMd(text: string, file: string): StateDoc {
  const lines = text.split('\n');
  const fail = (line: number, message: string): never => {
    throw new ProseError('E_CORRUPT', message, {
      location: { file, line },
      hint: 'state.md is written by the VM; restore it from the last good copy',
    });
  };
  const header: Record<string, string> = {};
  for (let i = 2; i < lines.length && lines[i] !== ''; i++) {
    const m = /^([a-z_]+): (.*)$/.exec(lines[i]!);
    if (!m) fail(i + 1, `malformed header line ${JSON.stringify(lines[i])}`);
    header[m![1]!] = m![2]!;
  }
  for (const key of ['run', 'program', 'started'])
    if (header[key] === undefined) fail(3, `state.md header has no "${key}:"`);
  const status = (header.status ?? 'running') as RunStatus;
  if (!(RUN_STATUSES as readonly string[]).includes(status)) fail(5, `unknown run status ${JSON.stringify(status)}`);
  const events = [...traceEvents(lines, fail), ...constructEvents(lines, fail), ...frameEvents(lines, fail)];
  try {
    foldEvents(events);
  } catch (err) {
    fail(1, `state.md does not describe a consistent execution: ${(err as Error).message}`);
  }
  return {
    runId: header.run!,
    programPath: header.program!,
    status,
    started: header.started!,
    updated: header.updated ?? header.started!,
    events,
  };
}

type Fail = (line: number, message: string) => never;

/** The lines of a `## Heading` section up to the next `## ` heading, with their 0-based indices. */
function section(lines: string[], heading: string): { at: number; text: string }[] {
  const start = lines.indexOf(`## ${heading}`);
  if (start === -1) return [];
  const out: { at: number; text: string }[] = [];
  for (let i = start + 1; i < lines.length && !lines[i]!.startsWith('## '); i++) out.push({ at: i, text: lines[i]! });
  return out;
}

/** filesystem.md "Status annotations", after the code of a trace line. */
const ANNOTATION =
  /^(.*\S)\s+# (--> \S+(?: \(complete\))?|<-- EXECUTING|<-- RETRYING \(attempt (\d+)\/(\d+)\)|\(complete\)|\[not yet entered\]|\[\.\.\.next\.\.\.\])\s*$/;

function traceEvents(lines: string[], fail: Fail): ExecutionEvent[] {
  const body = section(lines, 'Execution Trace');
  const open = body.findIndex((l) => l.text.startsWith('```'));
  if (open === -1) return [];
  const close = body.findIndex((l, k) => k > open && l.text === '```');
  if (close === -1) fail(body[open]!.at + 1, 'the Execution Trace code block is not closed');
  const events: ExecutionEvent[] = [];
  body.slice(open + 1, close).forEach((l, k) => {
    const m = ANNOTATION.exec(l.text);
    if (!m) return;
    const index = k + 1;
    const text = m[1]!.trim();
    const note = m[2]!;
    if (note.startsWith('[')) return; // not reached yet: nothing executed
    if (m[3] !== undefined) events.push({ type: 'retry', index, attempt: Number(m[3]), max: Number(m[4]) });
    events.push({ type: 'statement', index, text, status: note.startsWith('<--') ? 'executing' : 'completed' });
  });
  return events;
}

function constructEvents(lines: string[], fail: Fail): ExecutionEvent[] {
  const events: ExecutionEvent[] = [];
  let current: { kind: 'Parallel' | 'Loop'; id: string; items: Map<string, string>; at: number } | undefined;
  const flush = () => {
    if (!current) return;
    const { id, items, at } = current;
    if (current.kind === 'Parallel') {
      const strategy = (items.get('strategy')?.split(' ')[0] ?? 'all') as JoinStrategy;
      if (!['all', 'first', 'any'].includes(strategy))
        fail(at + 1, `unknown join strategy ${JSON.stringify(strategy)}`);
      const branches = [...items.keys()].filter((k) => k !== 'strategy');
      events.push({ type: 'parallel-start', id, strategy, branches });
      for (const b of branches) {
        const s = items.get(b)!;
        const status =
          s === 'complete' || s === 'completed'
            ? 'completed'
            : s === 'executing' || s === 'failed'
              ? s
              : s === 'pending'
                ? undefined
                : fail(at + 1, `branch ${b} has unknown status ${JSON.stringify(s)}`);
        if (status) events.push({ type: 'branch', id, branch: b, status });
      }
    } else {
      const it = /^(\d+)\/(\d+|∞)$/.exec(items.get('iteration') ?? '0/∞');
      if (!it) fail(at + 1, `loop ${id}: iteration is not "n/max"`);
      const condition = items.get('condition');
      events.push({
        type: 'loop-start',
        id,
        ...(it![2] !== '∞' ? { max: Number(it![2]) } : {}),
        ...(condition ? { condition } : {}),
      });
      for (let n = 1; n <= Number(it![1]); n++) events.push({ type: 'loop-iteration', id, iteration: n });
    }
    current = undefined;
  };
  for (const l of section(lines, 'Active Constructs')) {
    const h = /^### (Parallel|Loop) \((.+)\)$/.exec(l.text);
    if (h) {
      flush();
      current = { kind: h[1] as 'Parallel' | 'Loop', id: h[2]!, items: new Map(), at: l.at };
      continue;
    }
    const item = /^- ([^:]+): (.*)$/.exec(l.text);
    if (item && current) current.items.set(item[1]!, item[2]!);
  }
  flush();
  return events;
}

function frameEvents(lines: string[], fail: Fail): ExecutionEvent[] {
  const rows = section(lines, 'Call Stack')
    .filter((l) => /^\|\s*\d/.test(l.text))
    .map((l) => {
      const cells = l.text
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
      const [id, block, depth, , parent] = cells;
      if (!/^[1-9]\d*$/.test(id!) || !/^[1-9]\d*$/.test(depth ?? ''))
        fail(l.at + 1, 'a Call Stack row needs a positive execution_id and depth');
      return {
        executionId: Number(id),
        block: block!,
        depth: Number(depth),
        parent: parent === undefined || parent === '(root)' ? undefined : Number(parent),
        at: l.at,
      };
    });
  rows.sort((a, b) => a.depth - b.depth);
  return rows.map((r) => {
    // The seed's table has no parent column: the frame one level shallower invoked it.
    const parent =
      r.depth === 1
        ? null
        : (r.parent ??
          rows.find((o) => o.depth === r.depth - 1)?.executionId ??
          fail(r.at + 1, `frame ${r.executionId} at depth ${r.depth} has no frame at depth ${r.depth - 1}`));
    return { type: 'frame-enter', executionId: r.executionId, block: r.block, parent, depth: r.depth };
  });
}
