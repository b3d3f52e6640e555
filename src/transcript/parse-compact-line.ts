import type { NarrationEvent } from './narration-event.ts';
import { conditionText, type MarkerReading } from './parse-verbose-marker.ts';
import { parseArgs } from './read-frame-marker.ts';
import { readExecutionId, readInt, splitParams } from './trailing-params.ts';
import { decodeValue, readToken } from './value-codec.ts';

/**
 * The newest compact dialect (in-context.md at HEAD): `N→ name ✓`, `N→ ✓`, `N→ ✗ error`, `∥ [a b c]`,
 * `∥ [a✓ b✓ c→]`, `∥ done`, `loop:I/M`, `loop:I/M exit(**cond**)`, `#ID name`, `#ID done`, `try→`, `catch→ err`,
 * `finally→`, `call x(args) → result ✓`, `---end`. The store's extensions ride in a trailing parameter list.
 * Answers undefined for a line that is not a compact marker (plain conversation).
 */
export function readCompactLine(body: string): MarkerReading | undefined {
  const st = /^(\d+)→\s*/.exec(body);
  if (st) return readStatement(Number(st[1]), body.slice(st[0].length));
  if (body.startsWith('∥')) return readParallel(body.slice(1).trim());
  if (/^loop(?::|\s+(?:start|exit)\b|$)/.test(body)) return readLoop(body);
  const fr = /^#(\d+)(?:\s+(.*))?$/.exec(body);
  if (fr) return readFrame(Number(fr[1]), fr[2] ?? '');
  if (/^try→\s*$/.test(body)) return { events: [{ kind: 'try', phase: 'try' }] };
  const c = /^catch→\s*(.*)$/.exec(body);
  if (c) return { events: [{ kind: 'try', phase: 'catch', ...(c[1] ? { error: c[1].trim() } : {}) }] };
  if (/^finally→\s*$/.test(body)) return { events: [{ kind: 'try', phase: 'finally' }] };
  if (/^call\s/.test(body)) return readCall(body.slice(5));
  const end = /^---(end|error)\b(.*)$/.exec(body);
  if (end) return readEnd(end[1] === 'end', end[2]!);
  return undefined;
}

/** `---end` (in-context.md), `---error` (filesystem.md's marker, decision in-context-current-forms), `(run: ID)`. */
function readEnd(ok: boolean, rest: string): MarkerReading {
  const run = rest.trim().startsWith('(') ? splitParams(rest).params.values.run : undefined;
  return { events: [{ kind: 'run-status', status: ok ? 'end' : 'failed', ...(run ? { runId: run } : {}) }] };
}

function readStatement(index: number, rest: string): MarkerReading {
  const { head, params } = splitParams(rest);
  const v = params.values;
  const id = readExecutionId(v);
  const scope = id !== undefined ? { executionId: id } : {};
  const extra = { ...scope, ...(v.error !== undefined ? { error: v.error } : {}) };
  const text = v.text ?? '';
  const retry = /^retry:(\d+)\/(\d+)$/.exec(head);
  if (retry)
    return {
      events: [
        {
          kind: 'retry',
          index,
          attempt: Number(retry[1]),
          max: Number(retry[2]),
          ...(v.error !== undefined ? { error: v.error } : {}),
        },
      ],
    };
  if (head === '') return { events: [{ kind: 'statement', index, text, status: 'executing', ...extra }] };
  if (head === '✓') return { events: [{ kind: 'statement', index, text, status: 'completed', ...extra }] };
  if (head === '⊘') return { events: [{ kind: 'statement', index, text, status: 'skipped', ...extra }] };
  const fail = /^✗\s*(.*)$/.exec(head);
  if (fail) {
    const error = v.error ?? (fail[1] ? decodeValue(fail[1]).value : undefined);
    return {
      events: [
        { kind: 'statement', index, text, status: 'failed', ...scope, ...(error !== undefined ? { error } : {}) },
      ],
    };
  }
  const name = readToken(head, 0);
  if (name && /^\s*✓/.test(head.slice(name.end))) {
    return {
      events: [
        { kind: 'statement', index, text, status: 'completed', binds: name.value, ...scope },
        { kind: 'bind', name: name.value, ...scope },
      ],
    };
  }
  return { events: [{ kind: 'statement', index, text: v.text ?? head, status: 'executing', ...extra }] };
}

const BRANCH_STATUS = { '✓': 'completed', '✗': 'failed', '→': 'executing' } as const;

function readParallel(rest: string): MarkerReading {
  const { head, params } = splitParams(rest);
  const v = params.values;
  const id = v.parallel !== undefined ? { id: v.parallel } : {};
  if (head === 'done') return { events: [{ kind: 'parallel-join', branches: [], ...id }] };
  if (!head.startsWith('[')) return { events: [], problem: 'expected "∥ [branches]" or "∥ done"' };
  const close = head.lastIndexOf(']');
  if (close < 0) return { events: [], problem: 'the branch list is not closed with "]"' };
  const tail = head.slice(close + 1).trim();
  if (tail !== '' && tail !== 'done') return { events: [], problem: `unexpected "${tail}" after the branch list` };
  const items: { name: string; status?: 'completed' | 'failed' | 'executing' }[] = [];
  const body = head.slice(1, close);
  let i = 0;
  while (i < body.length) {
    while (body[i] === ' ') i += 1;
    if (i >= body.length) break;
    const t = body[i] === '"' ? readToken(body, i) : readToken(body.replace(/[✓✗→]/g, ' '), i);
    if (!t || t.end === i) return { events: [], problem: 'a branch name is not readable' };
    const mark = body[t.end] as keyof typeof BRANCH_STATUS | undefined;
    const status = mark && BRANCH_STATUS[mark];
    items.push({ name: t.value, ...(status ? { status } : {}) });
    i = t.end + (status ? 1 : 0);
  }
  const events: NarrationEvent[] = [];
  if (items.every((b) => b.status === undefined) && tail === '') {
    const count = readInt(v, 'count');
    const strategy = v.strategy as 'all' | 'first' | 'any' | undefined;
    const onFail = v['on-fail'] as 'fail-fast' | 'continue' | 'ignore' | undefined;
    events.push({
      kind: 'parallel-start',
      branches: items.map((b) => b.name),
      ...id,
      ...(strategy ? { strategy } : {}),
      ...(count !== undefined ? { count } : {}),
      ...(onFail ? { onFail } : {}),
    });
  } else {
    for (const b of items) if (b.status) events.push({ kind: 'branch', branch: b.name, status: b.status, ...id });
    if (tail === 'done')
      events.push({
        kind: 'parallel-join',
        branches: items
          .filter((b) => b.status !== 'executing')
          .map((b) => ({ name: b.name, ...(b.status ? { status: b.status } : {}) })),
        ...id,
      });
  }
  return { events };
}

function readLoop(body: string): MarkerReading {
  const { head, params } = splitParams(body);
  const v = params.values;
  const id = v.loop !== undefined ? { id: v.loop } : {};
  if (head === 'loop start') {
    const max = readInt(v, 'max');
    return {
      events: [
        {
          kind: 'loop-start',
          ...id,
          ...(max !== undefined ? { max } : {}),
          ...(v.condition !== undefined ? { condition: v.condition } : {}),
        },
      ],
    };
  }
  if (head === 'loop exit') {
    const reason = v.reason === 'max' || v.reason === 'break' ? v.reason : 'condition';
    return { events: [{ kind: 'loop-exit', reason, ...id }] };
  }
  const m = /^loop:(\d+)(?:\/(\d+))?(?:\s+exit(?:\((.*)\))?)?\s*$/.exec(head);
  if (!m) return { events: [], problem: 'expected "loop:I/M" or "loop:I/M exit(**condition**)"' };
  const iteration = Number(m[1]);
  const events: NarrationEvent[] = [
    { kind: 'loop-iteration', iteration, ...(m[2] ? { max: Number(m[2]) } : {}), ...id },
  ];
  if (/\sexit\b/.test(head))
    events.push({
      kind: 'loop-exit',
      reason: 'condition',
      iteration,
      ...(m[3] !== undefined ? { condition: conditionText(m[3]) } : {}),
      ...id,
    });
  return { events };
}

function readFrame(executionId: number, rest: string): MarkerReading {
  const { head, params } = splitParams(rest);
  const v = params.values;
  if (head === 'done')
    return { events: [{ kind: 'frame-exit', executionId, status: v.status === 'failed' ? 'failed' : 'completed' }] };
  const name = readToken(head, 0);
  if (!name) return { events: [], problem: 'a block invocation needs a name: "#ID name"' };
  let args: Record<string, string> | undefined;
  const after = head.slice(name.end);
  if (after.startsWith('(') && after.endsWith(')')) {
    const inner = after.slice(1, -1);
    args = parseArgs(inner) ?? Object.fromEntries(inner.split(',').map((a, k) => [String(k + 1), a.trim()]));
  } else if (after.trim() !== '') {
    return { events: [], problem: `unexpected "${after.trim()}" after the block name` };
  }
  if (v.args !== undefined) args = parseArgs(v.args);
  const parent = readExecutionId(v, 'parent');
  const depth = readInt(v, 'depth');
  return {
    events: [
      {
        kind: 'frame-enter',
        executionId,
        block: name.value,
        ...(parent !== undefined ? { parent } : {}),
        ...(depth !== undefined ? { depth } : {}),
        ...(args ? { args } : {}),
      },
    ],
  };
}

function readCall(rest: string): MarkerReading {
  const m = /^(\S+?)\((.*)\)\s*→\s*(.*)$/.exec(rest);
  if (!m) return { events: [], problem: 'expected "call x(args) → result ✓"' };
  const res = m[3]!.trim();
  const fail = /^✗\s*(.*)$/.exec(res);
  if (fail)
    return {
      events: [{ kind: 'call', target: m[1]!, args: m[2]!, ok: false, ...(fail[1] ? { error: fail[1] } : {}) }],
    };
  const done = /^(?:(\S+)\s+)?✓\s*$/.exec(res);
  if (!done) return { events: [], problem: 'a call ends in "→ result ✓", "→ ✓" or "→ ✗ error"' };
  return { events: [{ kind: 'call', target: m[1]!, args: m[2]!, ok: true, ...(done[1] ? { result: done[1] } : {}) }] };
}
