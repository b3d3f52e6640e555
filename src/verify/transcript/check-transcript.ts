import type { Edition } from '../../core/editions.ts';
import type { BindingKind } from '../../core/model.ts';
import type { TranscriptEvent } from '../../transcript/narration-event.ts';
import { parseTranscript } from '../../transcript/parse-transcript.ts';
import type { Finding } from '../finding.ts';
import { finding } from '../kit/finding-sink.ts';
import { currentFormFindings } from './current-forms.ts';
import { transcriptEdition } from './transcript-edition.ts';
import { TRANSCRIPT_RULES, type TranscriptRuleId } from './transcript-rules.ts';

type Ev<K extends TranscriptEvent['kind']> = Extract<TranscriptEvent, { kind: K }>;
type At = { line: number; column: number };

interface Frame {
  block: string;
  depth: number;
  parent: number | null;
  open: boolean;
  at: At;
}
interface Par {
  strategy: string;
  count?: number;
  branchCount?: number;
  branches: string[];
  settled: Map<string, string>;
  joined: boolean;
  line: number;
}

/** What one run of a transcript has said so far. Execution ids, loops and parallels are per run. */
class RunCheck {
  frames = new Map<number, Frame>();
  maxId = 0;
  loops = new Map<string, { max?: number; last: number }>();
  parallels = new Map<string, Par>();
  /** Names bound so far, by scope (`root` or the execution id), with their kind. */
  scopes = new Map<string, Map<string, BindingKind | undefined>>();
  retries = new Map<string, number>();
  ended = false;

  innermost(): number | null {
    let best: [number, Frame] | undefined;
    for (const entry of this.frames) if (entry[1].open && (!best || entry[1].depth >= best[1].depth)) best = entry;
    return best?.[0] ?? null;
  }

  /** Frames a name is looked up in from `id`, innermost first, ending with root. */
  chain(id: number | null): string[] {
    const out: string[] = [];
    const seen = new Set<number>();
    for (let cur = id; cur !== null && !seen.has(cur); cur = this.frames.get(cur)?.parent ?? null) {
      seen.add(cur);
      out.push(String(cur));
    }
    return [...out, 'root'];
  }
}

/**
 * Checks a transcript an LLM wrote against the seed's narration rules (TRANSCRIPT_RULES). Pure: text in, findings
 * out, each naming its line and rule. Parse diagnostics come through as findings of their own rule. `edition` is the
 * edition judged (absent: the one the transcript reads as); the current edition also checks its forms.
 */
export function checkTranscript(text: string, file?: string, edition?: Edition): Finding[] {
  const parsed = parseTranscript(text);
  const findings: Finding[] = parsed.diagnostics.map((d) =>
    finding(
      TRANSCRIPT_RULES,
      d.rule as TranscriptRuleId,
      d.message,
      { line: d.line, column: d.column, file: file || undefined },
      d.severity,
    ),
  );
  const add: Add = (rule, at, message, severity, hint) =>
    findings.push(
      finding(
        TRANSCRIPT_RULES,
        rule,
        message,
        { line: at.line, column: at.column, file: file || undefined, hint: hint || undefined },
        severity,
      ),
    );
  const runs = [new RunCheck()];
  const named = new Map<string, RunCheck>();
  for (const e of parsed.events) {
    if (e.kind === 'run-start') {
      runs.push(new RunCheck());
      if (e.runId) named.set(e.runId, runs.at(-1)!);
    } else if (e.kind === 'run-switch') {
      const r = named.get(e.runId);
      if (r) runs.push(r);
    } else {
      check(runs.at(-1)!, e, add);
    }
  }
  for (const r of new Set(runs)) finish(r, add);
  if ((edition ?? transcriptEdition(parsed).edition) === 'current')
    currentFormFindings(parsed.events, (at, message, hint) => add('edition.v0-marker', at, message, 'warning', hint));
  return findings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}

type Add = (rule: TranscriptRuleId, at: At, message: string, severity?: Finding['severity'], hint?: string) => void;

type Checker<K extends TranscriptEvent['kind']> = (r: RunCheck, e: Ev<K>, add: Add) => void;

/** The checks per narration kind; a kind missing here (notes, try, calls, memory, the store's lines) has none. */
const CHECKS: { [K in TranscriptEvent['kind']]?: Checker<K> } = {
  'run-status': (r, e) => {
    if (e.status === 'completed' || e.status === 'end' || e.status === 'failed') r.ended = true;
  },
  'frame-enter': frameEnter,
  'frame-exit': (r, e, add) => {
    const f = r.frames.get(e.executionId);
    if (f && e.block !== undefined && e.block !== f.block)
      add('frame.block', e, `execution_id ${e.executionId} entered block ${f.block}, not ${e.block}`);
    if (f) f.open = false;
  },
  retry: (r, e, add) => {
    const key = String(e.index ?? '');
    const prev = r.retries.get(key) ?? 0;
    if (e.attempt > e.max) add('retry.max', e, `retry ${e.attempt} is past max ${e.max}`);
    if (e.attempt !== prev + 1) add('retry.sequence', e, `retry ${e.attempt} after ${prev}; the next is ${prev + 1}`);
    r.retries.set(key, e.attempt);
  },
  'loop-exit': (r, e, add) => {
    const l = e.id === undefined ? undefined : r.loops.get(e.id);
    if (l && e.iteration !== undefined && e.iteration !== l.last)
      add('loop.sequence', e, `the loop exits "at iteration ${e.iteration}" but its last iteration was ${l.last}`);
  },
  callstack: callStack,
  'loop-start': (r, e) => {
    r.loops.set(e.id!, { ...(e.max !== undefined ? { max: e.max } : {}), last: 0 });
  },
  'loop-iteration': loopIteration,
  'parallel-start': (r, e) => {
    r.parallels.set(e.id!, {
      strategy: e.strategy ?? 'all',
      ...(e.count !== undefined ? { count: e.count } : {}),
      ...(e.branchCount !== undefined ? { branchCount: e.branchCount } : {}),
      branches: e.branches,
      settled: new Map(),
      joined: false,
      line: e.line,
    });
  },
  branch: (r, e, add) => {
    const p = e.id === undefined ? undefined : r.parallels.get(e.id);
    if (p && p.branches.length && !p.branches.includes(e.branch))
      add('parallel.branch', e, `branch ${e.branch} was not entered on line ${p.line}`);
    if (p && e.status !== 'executing') p.settled.set(e.branch, e.status);
  },
  'parallel-join': parallelJoin,
  bind: bind,
  read: read,
  statement: (r, e, add) => {
    if (e.executionId != null && !r.frames.has(e.executionId))
      add('exec-id.unknown', e, `execution_id ${e.executionId} was never entered`);
  },
};

function check(r: RunCheck, e: TranscriptEvent, add: Add): void {
  (CHECKS[e.kind] as Checker<TranscriptEvent['kind']> | undefined)?.(r, e, add);
}

function frameEnter(r: RunCheck, e: Ev<'frame-enter'>, add: Add): void {
  const seen = r.frames.get(e.executionId);
  if (seen)
    add(
      'exec-id.duplicate',
      e,
      `execution_id ${e.executionId} was already used on line ${seen.at.line}`,
      'error',
      'each block invocation gets a new execution_id',
    );
  else if (e.executionId !== r.maxId + 1)
    add('exec-id.sequence', e, `execution_id ${e.executionId} after ${r.maxId}; ids go 1, 2, 3, ...`, 'warning');
  const parent = e.parent ?? null;
  const p = parent === null ? undefined : r.frames.get(parent);
  if (parent !== null && !p) add('exec-id.parent', e, `parent execution_id ${parent} was never entered`);
  else if (p && !p.open) add('exec-id.parent', e, `parent execution_id ${parent} has already exited`);
  const want = p ? p.depth + 1 : 1;
  if (e.depth !== undefined && (parent === null || p) && e.depth !== want) {
    add(
      'frame.depth',
      e,
      `depth ${e.depth}, but ${p ? `its parent ${parent} has depth ${p.depth}` : 'a first-level frame has depth 1'}`,
    );
  }
  r.frames.set(e.executionId, { block: e.block, depth: e.depth ?? want, parent, open: true, at: seen?.at ?? e });
  r.maxId = Math.max(r.maxId, e.executionId);
}

function loopIteration(r: RunCheck, e: Ev<'loop-iteration'>, add: Add): void {
  const l = r.loops.get(e.id!) ?? { last: 0 };
  r.loops.set(e.id!, l);
  if (e.max !== undefined && l.max !== undefined && e.max !== l.max)
    add('loop.max', e, `iteration says max ${e.max}, the loop started with max ${l.max}`);
  l.max ??= e.max;
  if (l.max !== undefined && e.iteration > l.max) add('loop.max', e, `iteration ${e.iteration} is past max ${l.max}`);
  if (e.iteration !== l.last + 1)
    add('loop.sequence', e, `iteration ${e.iteration} after ${l.last}; the next is ${l.last + 1}`);
  l.last = e.iteration;
}

function parallelJoin(r: RunCheck, e: Ev<'parallel-join'>, add: Add): void {
  const p = e.id === undefined ? undefined : r.parallels.get(e.id);
  if (!p) return;
  for (const b of e.branches) {
    if (p.branches.length && !p.branches.includes(b.name))
      add('parallel.branch', e, `branch ${b.name} was not entered on line ${p.line}`);
    if (b.status !== 'executing') p.settled.set(b.name, b.status ?? 'completed');
  }
  p.joined = true;
  const completed = [...p.settled.values()].filter((s) => s === 'completed').length;
  if (p.strategy === 'all') {
    const missing = p.branches.filter((b) => !p.settled.has(b));
    if (missing.length)
      add(
        'parallel.join',
        e,
        `joined without branch${missing.length > 1 ? 'es' : ''} ${missing.join(', ')} entered on line ${p.line}`,
      );
    else if (p.branches.length === 0 && p.branchCount !== undefined && p.settled.size < p.branchCount) {
      add('parallel.join', e, `joined ${p.settled.size} of the ${p.branchCount} branches entered on line ${p.line}`);
    }
    return;
  }
  const need = p.count ?? 1;
  const total = p.branches.length || p.branchCount || 0;
  if (completed < need && p.settled.size < total)
    add(
      'parallel.join',
      e,
      `strategy ${p.strategy} joined with ${completed} completed branches; it needs ${need} or every branch settled`,
    );
}

/** A binding without an execution_id belongs to the innermost open frame (the compact dialect's implicit scope). */
function bind(r: RunCheck, e: Ev<'bind'>, add: Add): void {
  if (e.executionId != null && !r.frames.has(e.executionId))
    add('exec-id.unknown', e, `execution_id ${e.executionId} was never entered`);
  if (e.executionId === undefined && e.dialect === 'verbose' && r.innermost() !== null) {
    add(
      'binding.scope',
      e,
      `${e.name} is bound inside execution_id ${r.innermost()} without naming it`,
      'warning',
      'the seed: "When inside a block invocation, always include the execution_id"',
    );
  }
  const scope = String((e.executionId === undefined ? r.innermost() : e.executionId) ?? 'root');
  const names = r.scopes.get(scope) ?? new Map<string, BindingKind | undefined>();
  r.scopes.set(scope, names);
  if (names.get(e.name) === 'const')
    add(
      'binding.const-rebind',
      e,
      `const ${e.name} is bound again${scope === 'root' ? '' : ` in execution_id ${scope}`}`,
      'error',
      'const bindings are immutable; use let',
    );
  names.set(e.name, e.bindingKind ?? names.get(e.name));
}

function read(r: RunCheck, e: Ev<'read'>, add: Add): void {
  const visible = r.chain(e.executionId === undefined ? r.innermost() : e.executionId);
  for (const n of e.names) {
    if (!visible.some((s) => r.scopes.get(s)?.has(n)))
      add(
        'binding.read-before-bind',
        e,
        `${n} is used before it is bound`,
        'error',
        'narrate [Binding] before a session reads the value',
      );
  }
}

function callStack(r: RunCheck, e: Ev<'callstack'>, add: Add): void {
  const listed = new Set(e.frames.map((f) => f.executionId));
  for (const f of e.frames) {
    const known = r.frames.get(f.executionId);
    if (known && !known.open && f.status !== 'completed')
      add('callstack.mismatch', e, `execution_id ${f.executionId} is listed as ${f.status} but has exited`, 'warning');
  }
  for (const [id, f] of r.frames)
    if (f.open && !listed.has(id))
      add('callstack.mismatch', e, `open execution_id ${id} is missing from the stack`, 'warning');
}

function finish(r: RunCheck, add: Add): void {
  const severity = r.ended ? 'error' : 'warning';
  for (const [id, f] of r.frames) {
    if (f.open)
      add(
        'frame.unclosed',
        f.at,
        `[Frame+] of execution_id ${id} has no [Frame-]`,
        severity,
        'narrate "[Frame-] Exiting block: NAME (execution_id: N)" when the block completes',
      );
  }
  for (const p of r.parallels.values()) {
    if (!p.joined)
      add('parallel.unjoined', { line: p.line, column: 1 }, 'this parallel block is never joined', severity);
  }
}
