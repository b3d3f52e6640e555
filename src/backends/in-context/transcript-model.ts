import { ProseError } from '../../core/errors.ts';
import { EventLog } from '../../core/event-log.ts';
import type { BindingRecord, ExecutionId, RunRecord, Segment } from '../../core/model.ts';
import type { TranscriptEvent } from '../../transcript/narration-event.ts';
import { parseTranscript } from '../../transcript/parse-transcript.ts';
import { toExecutionEvent } from './narration-to-event.ts';

/** What one run's narration adds up to: the store answers every read from this, rebuilt from the text. */
export interface RunModel {
  record: RunRecord;
  /** Appended to as narration is read; a model read again from the text (another writer) has new logs. */
  log: EventLog;
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
  /** The same receipts per node, so one node's chain is read without passing over every node's (issue 35). */
  receiptsOf: Map<string, string[]>;
  workspace: Map<string, string>;
  envelope?: { compiledIntentJson: string; rootSource: string; sources: Record<string, string> };
}

export interface TranscriptModel {
  runs: Map<string, RunModel>;
  /**
   * The conversation's canonical store across its runs, in the order narrated: each node's last receipt and last
   * published version, and every version's bytes. The current edition keeps one chain per node for as long as the
   * conversation lasts (decision in-context-current-ledger); v0 reads each run's own.
   */
  acrossRuns: { lastReceipt: Map<string, string>; published: Map<string, string>; versions: Map<string, string> };
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
  const acrossRuns = { lastReceipt: new Map(), published: new Map(), versions: new Map() };
  return extendModel({ runs: new Map(), acrossRuns, current: undefined, lineCount: 0 }, text, segmentFile);
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

type NarrationOf<K extends TranscriptEvent['kind']> = Extract<TranscriptEvent, { kind: K }>;
type SegmentFile = (agent: string, n: number) => string;

/** The narration kinds that change a run's record, bindings, memory or world-model store; the rest are events. */
const RUN_UPDATES: {
  [K in TranscriptEvent['kind']]?: (run: RunModel, e: NarrationOf<K>, segmentFile: SegmentFile) => void;
} = {
  'run-status': (run, e) => {
    run.record.status = e.status === 'end' ? 'completed' : e.status;
  },
  bind: (run, e) => {
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
  },
  memory: (run, e) => {
    run.memory.set(e.agent, e.memory);
  },
  segment: (run, e, segmentFile) => {
    const list = run.segments.get(e.agent) ?? [];
    list.push({
      number: e.number,
      file: segmentFile(e.agent, e.number),
      timestamp: e.timestamp,
      prompt: e.prompt,
      summary: e.summary,
    });
    run.segments.set(e.agent, list);
  },
  'wm-version': (run, e) => {
    run.wm.versions.set(versionKey(e.node, e.address), e.bytes);
  },
  'wm-publish': (run, e) => {
    run.wm.published.set(e.node, e.address);
  },
  'wm-workspace': (run, e) => {
    run.wm.workspace.set(e.node, e.bytes);
  },
  envelope: (run, e) => {
    run.wm.envelope = { compiledIntentJson: e.compiledIntentJson, rootSource: e.rootSource, sources: e.sources };
  },
  receipt: (run, e) => {
    run.wm.receipts.push({ node: e.node, receipt: e.receipt });
    const chain = run.wm.receiptsOf.get(e.node);
    if (chain) chain.push(e.receipt);
    else run.wm.receiptsOf.set(e.node, [e.receipt]);
  },
};

function startRun(model: TranscriptModel, e: NarrationOf<'run-start'>): void {
  if (e.runId === undefined) return;
  model.runs.set(e.runId, {
    record: {
      runId: e.runId,
      program: e.program ?? '',
      ...(e.programPath !== undefined ? { programPath: e.programPath } : {}),
      status: 'running',
      startedAt: e.startedAt ?? '',
    },
    log: new EventLog(),
    bindings: new Map(),
    memory: new Map(),
    segments: new Map(),
    frames: new Map(),
    wm: { versions: new Map(), published: new Map(), receipts: [], receiptsOf: new Map(), workspace: new Map() },
  });
  model.current = e.runId;
}

/** Logs the engine event a narration line records (if any), keeping the run's frame table in step. */
function recordEvent(run: RunModel, e: TranscriptEvent): void {
  const ev = toExecutionEvent(e);
  if (!ev) return;
  if (ev.type === 'frame-enter') run.frames.set(ev.executionId, { block: ev.block, depth: ev.depth, open: true });
  if (ev.type === 'frame-exit') {
    const f = run.frames.get(ev.executionId);
    if (f) f.open = false;
  }
  run.log.append(ev);
}

function apply(model: TranscriptModel, e: TranscriptEvent, segmentFile: SegmentFile): void {
  if (e.kind === 'run-start') return startRun(model, e);
  if (e.kind === 'run-switch') {
    model.current = e.runId;
    return;
  }
  const run = model.current === undefined ? undefined : model.runs.get(model.current);
  if (!run) return;
  noteAcrossRuns(model.acrossRuns, e);
  const update = RUN_UPDATES[e.kind] as ((run: RunModel, e: TranscriptEvent, f: SegmentFile) => void) | undefined;
  if (update) update(run, e, segmentFile);
  else recordEvent(run, e);
}

/** Keeps the conversation-wide view of the canonical store in step with a run's line. */
function noteAcrossRuns(across: TranscriptModel['acrossRuns'], e: TranscriptEvent): void {
  if (e.kind === 'receipt') across.lastReceipt.set(e.node, e.receipt);
  else if (e.kind === 'wm-publish') across.published.set(e.node, e.address);
  else if (e.kind === 'wm-version') across.versions.set(versionKey(e.node, e.address), e.bytes);
}
