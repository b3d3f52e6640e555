import { ProseError } from '../../core/errors.ts';
import type { BindingRecord, ExecutionEvent, ExecutionId, RunRecord, Segment } from '../../core/model.ts';
import type { TranscriptEvent } from '../../transcript/narration-event.ts';
import { parseTranscript } from '../../transcript/parse-transcript.ts';

/** What one run's narration adds up to: the store answers every read from this, rebuilt from the text. */
export interface RunModel {
  record: RunRecord;
  events: ExecutionEvent[];
  bindings: Map<string, BindingRecord>;
  memory: Map<string, string>;
  segments: Map<string, Segment[]>;
  frames: Map<ExecutionId, { block: string; depth: number; open: boolean }>;
  wm: WorldModelState;
}

/** The canonical store as narrated: version bytes are kept as the base64 text the transcript holds. */
export interface WorldModelState {
  versions: Map<string, string>;
  published: Map<string, string>;
  receipts: { node: string; receipt: string }[];
  workspace: Map<string, string>;
  envelope?: { compiledIntentJson: string; rootSource: string; sources: Record<string, string> };
}

export interface TranscriptModel {
  runs: Map<string, RunModel>;
  /** The run the last `[Program]` line speaks of: later lines belong to it. */
  current: string | undefined;
  lineCount: number;
}

export const versionKey = (node: string, address: string) => `${node}\u0000${address}`;
export const bindingKey = (name: string, executionId: ExecutionId | null) => `${executionId ?? 'root'}\u0000${name}`;

/**
 * Reads the transcript back ("what you say becomes what you remember"). A line the parser cannot read is
 * E_CORRUPT: the store wrote every line, so one it cannot read means the text is not ours or was cut.
 */
export function readModel(text: string, segmentFile: (agent: string, n: number) => string): TranscriptModel {
  return extendModel({ runs: new Map(), current: undefined, lineCount: 0 }, text, segmentFile);
}

/**
 * Adds narration appended after the text `model` was read from (which ended in a newline). Every line the store
 * writes names its ids, so the appended lines read the same alone as at the end of the whole text.
 */
export function extendModel(
  model: TranscriptModel,
  appended: string,
  segmentFile: (agent: string, n: number) => string,
): TranscriptModel {
  const parsed = parseTranscript(appended);
  const broken = parsed.diagnostics.find((d) => d.rule === 'parse.malformed' || d.rule === 'parse.truncated');
  if (broken) {
    const line = model.lineCount + broken.line;
    throw new ProseError('E_CORRUPT', `transcript line ${line}: ${broken.message}`, {
      location: { file: 'transcript', line, column: broken.column },
    });
  }
  for (const e of parsed.events) apply(model, e, segmentFile);
  model.lineCount += parsed.lineCount;
  return model;
}

function apply(model: TranscriptModel, e: TranscriptEvent, segmentFile: (agent: string, n: number) => string): void {
  if (e.kind === 'run-start') {
    if (e.runId === undefined) return;
    model.runs.set(e.runId, {
      record: {
        runId: e.runId,
        program: e.program ?? '',
        ...(e.programPath !== undefined ? { programPath: e.programPath } : {}),
        status: 'running',
        startedAt: e.startedAt ?? '',
      },
      events: [],
      bindings: new Map(),
      memory: new Map(),
      segments: new Map(),
      frames: new Map(),
      wm: { versions: new Map(), published: new Map(), receipts: [], workspace: new Map() },
    });
    model.current = e.runId;
    return;
  }
  if (e.kind === 'run-switch') {
    model.current = e.runId;
    return;
  }
  const run = model.current === undefined ? undefined : model.runs.get(model.current);
  if (!run) return;
  switch (e.kind) {
    case 'run-status':
      run.record.status = e.status === 'end' ? 'completed' : e.status;
      return;
    case 'bind': {
      if (e.value === undefined) return;
      const executionId = e.executionId ?? null;
      const prev = run.bindings.get(bindingKey(e.name, executionId));
      run.bindings.set(bindingKey(e.name, executionId), {
        name: e.name,
        kind: e.bindingKind ?? prev?.kind ?? 'let',
        value: e.value,
        executionId,
        ...(e.source !== undefined ? { source: e.source } : {}),
      });
      return;
    }
    case 'memory':
      run.memory.set(e.agent, e.memory);
      return;
    case 'segment': {
      const list = run.segments.get(e.agent) ?? [];
      list.push({
        number: e.number,
        file: segmentFile(e.agent, e.number),
        timestamp: e.timestamp,
        prompt: e.prompt,
        summary: e.summary,
      });
      run.segments.set(e.agent, list);
      return;
    }
    case 'wm-version':
      run.wm.versions.set(versionKey(e.node, e.address), e.bytes);
      return;
    case 'wm-publish':
      run.wm.published.set(e.node, e.address);
      return;
    case 'wm-workspace':
      run.wm.workspace.set(e.node, e.bytes);
      return;
    case 'envelope':
      run.wm.envelope = { compiledIntentJson: e.compiledIntentJson, rootSource: e.rootSource, sources: e.sources };
      return;
    case 'receipt':
      run.wm.receipts.push({ node: e.node, receipt: e.receipt });
      return;
    default: {
      const ev = toExecutionEvent(e);
      if (!ev) return;
      if (ev.type === 'frame-enter') run.frames.set(ev.executionId, { block: ev.block, depth: ev.depth, open: true });
      if (ev.type === 'frame-exit') {
        const f = run.frames.get(ev.executionId);
        if (f) f.open = false;
      }
      run.events.push(ev);
    }
  }
}

/** The engine's event for a narration event, or undefined for narration that records no state (notes, reads, try). */
export function toExecutionEvent(e: TranscriptEvent): ExecutionEvent | undefined {
  switch (e.kind) {
    case 'statement':
      if (e.index === undefined) return undefined;
      return {
        type: 'statement',
        index: e.index,
        text: e.text,
        status: e.status,
        ...(e.executionId !== undefined ? { executionId: e.executionId } : {}),
        ...(e.error !== undefined ? { error: e.error } : {}),
      };
    case 'frame-enter':
      return {
        type: 'frame-enter',
        executionId: e.executionId,
        block: e.block,
        parent: e.parent ?? null,
        depth: e.depth ?? 1,
        ...(e.args !== undefined ? { args: e.args } : {}),
      };
    case 'frame-exit':
      return { type: 'frame-exit', executionId: e.executionId, status: e.status };
    case 'parallel-start':
      return {
        type: 'parallel-start',
        id: e.id!,
        strategy: e.strategy ?? 'all',
        branches: e.branches,
        ...(e.count !== undefined ? { count: e.count } : {}),
        ...(e.onFail !== undefined ? { onFail: e.onFail } : {}),
      };
    case 'branch':
      return e.id === undefined ? undefined : { type: 'branch', id: e.id, branch: e.branch, status: e.status };
    case 'parallel-join':
      return e.id === undefined ? undefined : { type: 'parallel-join', id: e.id };
    case 'loop-start':
      return {
        type: 'loop-start',
        id: e.id!,
        ...(e.max !== undefined ? { max: e.max } : {}),
        ...(e.condition !== undefined ? { condition: e.condition } : {}),
      };
    case 'loop-iteration':
      return { type: 'loop-iteration', id: e.id!, iteration: e.iteration };
    case 'loop-exit':
      return e.id === undefined ? undefined : { type: 'loop-exit', id: e.id, reason: e.reason };
    case 'retry':
      return e.index === undefined
        ? undefined
        : {
            type: 'retry',
            index: e.index,
            attempt: e.attempt,
            max: e.max,
            ...(e.error !== undefined ? { error: e.error } : {}),
          };
    case 'error':
      return e.index === undefined ? undefined : { type: 'error', index: e.index, message: e.message };
    case 'anon':
      return { type: 'anon', name: e.name };
    default:
      return undefined;
  }
}
