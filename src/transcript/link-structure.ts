import type { Diagnostic, TranscriptEvent } from './narration-event.ts';

interface RunStructure {
  open: { id: number; depth: number; parent: number | null }[];
  parallels: string[];
  loops: { id: string; indent: number }[];
}

const fresh = (): RunStructure => ({ open: [], parallels: [], loops: [] });

/**
 * Gives every event the ids a narration leaves implicit: a frame's parent and depth (the innermost open frame),
 * the parallel a branch or join belongs to, the loop an iteration counts (the seed and the compact dialect name
 * none), and inserts the loop start the compact dialect leaves out. Reports broken nesting as `parse.nesting`.
 * Each run of a transcript has its own structure (execution ids restart per run).
 */
export function linkStructure(events: TranscriptEvent[], diagnostics: Diagnostic[]): TranscriptEvent[] {
  const out: TranscriptEvent[] = [];
  const runs = new Map<string, RunStructure>();
  let s = fresh();
  runs.set('', s);
  const nest = (e: TranscriptEvent, message: string) =>
    diagnostics.push({ rule: 'parse.nesting', severity: 'error', line: e.line, column: e.column, message });

  for (const e of events) {
    switch (e.kind) {
      case 'run-start':
        s = fresh();
        runs.set(e.runId ?? '', s);
        break;
      case 'run-switch':
        s = runs.get(e.runId) ?? fresh();
        runs.set(e.runId, s);
        break;
      case 'frame-enter':
        linkFrameEnter(s, e);
        break;
      case 'frame-exit':
        linkFrameExit(s, e, nest);
        break;
      case 'parallel-start':
        e.id ??= `parallel@${e.line}`;
        s.parallels.push(e.id);
        break;
      case 'branch':
        if (e.id !== undefined) break;
        if (s.parallels.length === 0) nest(e, `branch ${e.branch} outside any parallel block`);
        else e.id = s.parallels.at(-1)!;
        break;
      case 'parallel-join':
        linkJoin(s, e, nest);
        break;
      case 'loop-start':
        e.id ??= `loop@${e.line}`;
        s.loops.push({ id: e.id, indent: e.indent });
        break;
      case 'loop-iteration':
        if (e.id === undefined) linkIteration(s, e, out, nest);
        break;
      case 'loop-exit':
        linkLoopExit(s, e, nest);
        break;
      default:
        break;
    }
    out.push(e);
  }
  return out;
}

type EventOf<K extends TranscriptEvent['kind']> = Extract<TranscriptEvent, { kind: K }>;
type Nest = (e: TranscriptEvent, message: string) => void;

/** A frame's parent is the innermost open frame (none at depth 1), its depth one past its parent's. */
function linkFrameEnter(s: RunStructure, e: EventOf<'frame-enter'>): void {
  const top = s.open.at(-1);
  if (e.parent === undefined) e.parent = e.depth === 1 ? null : (top?.id ?? null);
  const parentDepth = e.parent === null ? 0 : (s.open.find((f) => f.id === e.parent)?.depth ?? 0);
  if (e.depth === undefined) e.depth = parentDepth + 1;
  s.open.push({ id: e.executionId, depth: e.depth, parent: e.parent });
}

/** A frame exits while open and after every frame inside it. */
function linkFrameExit(s: RunStructure, e: EventOf<'frame-exit'>, nest: Nest): void {
  const at = s.open.findIndex((f) => f.id === e.executionId);
  if (at < 0) {
    nest(e, `exit of execution_id ${e.executionId}, which is not open`);
    return;
  }
  const inner = s.open.find((f) => f !== s.open[at] && isInside(s, f, e.executionId));
  if (inner) nest(e, `exit of execution_id ${e.executionId} while execution_id ${inner.id} inside it is still open`);
  s.open.splice(at, 1);
}

/** A join closes the parallel it names, else the innermost open one. */
function linkJoin(s: RunStructure, e: EventOf<'parallel-join'>, nest: Nest): void {
  e.id ??= s.parallels.at(-1);
  const at = e.id === undefined ? -1 : s.parallels.lastIndexOf(e.id);
  if (at < 0) nest(e, 'parallel join with no open parallel block');
  else s.parallels.splice(at, 1);
}

/** A loop exit closes the loop it names, else the innermost open one. */
function linkLoopExit(s: RunStructure, e: EventOf<'loop-exit'>, nest: Nest): void {
  const at = e.id !== undefined ? s.loops.findLastIndex((l) => l.id === e.id) : s.loops.length - 1;
  if (e.id === undefined && at < 0) {
    nest(e, 'loop exit outside any loop');
    return;
  }
  if (at >= 0) {
    e.id ??= s.loops[at]!.id;
    s.loops.splice(at, 1);
  }
}

/** Whether frame `f` is (transitively) inside frame `ancestor`. */
function isInside(s: RunStructure, f: { id: number; parent: number | null }, ancestor: number): boolean {
  const seen = new Set<number>();
  let cur = f.parent;
  while (cur !== null && !seen.has(cur)) {
    if (cur === ancestor) return true;
    seen.add(cur);
    cur = s.open.find((x) => x.id === cur)?.parent ?? null;
  }
  return false;
}

/** The loop start a compact `loop:1/M` (or an orphan iteration) implies, at the same line. */
function impliedStart(e: EventOf<'loop-iteration'>, id: string): TranscriptEvent {
  return {
    kind: 'loop-start',
    id,
    ...(e.max !== undefined ? { max: e.max } : {}),
    line: e.line,
    column: e.column,
    indent: e.indent,
    dialect: e.dialect,
  };
}

/**
 * Finds the loop an iteration without an id counts: the open loop at its indent, else the innermost. In the compact
 * dialect `loop:1/M` starts a loop (ending one left open at that indent); elsewhere an orphan is broken nesting.
 */
function linkIteration(s: RunStructure, e: EventOf<'loop-iteration'>, out: TranscriptEvent[], nest: Nest): void {
  const same = s.loops.findLastIndex((l) => l.indent === e.indent);
  const start = () => {
    const id = `loop@${e.line}`;
    out.push(impliedStart(e, id));
    s.loops.push({ id, indent: e.indent });
    e.id = id;
  };
  if (e.dialect === 'compact' && e.iteration === 1) {
    if (same >= 0) s.loops.splice(same);
    return start();
  }
  const l = same >= 0 ? s.loops[same] : s.loops.at(-1);
  if (l) {
    e.id = l.id;
    return;
  }
  nest(e, `loop iteration ${e.iteration} outside any loop`);
  start();
}
