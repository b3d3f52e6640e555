import type { StorageView } from '../../core/backend.ts';
import type { Decisions } from '../../core/decisions.ts';
import type { Edition } from '../../core/editions.ts';
import { ProseError } from '../../core/errors.ts';
import type {
  AgentLocation,
  BindingRecord,
  ExecutionEvent,
  ExecutionId,
  RunRecord,
  RunRef,
  RunStatus,
  Segment,
} from '../../core/model.ts';
import { segmentFileName } from '../../core/numbering.ts';
import type { StateStore, WorldModelStore } from '../../core/store.ts';
import type { Dialect, NarrationEvent } from '../../transcript/narration-event.ts';
import { writeCompact } from '../../transcript/write-compact.ts';
import { writeCurrent } from '../../transcript/write-current.ts';
import { writeVerbose } from '../../transcript/write-verbose.ts';
import { toNarration } from './event-to-narration.ts';
import { TranscriptWorldModel } from './transcript-world-model.ts';
import { bindingKey, extendModel, readModel, type RunModel, type TranscriptModel } from './transcript-model.ts';

/** The conversation a store narrates into. The factory keeps one per storage, so a restart reads the same text. */
export interface Conversation {
  text: string;
}

/**
 * A StateStore whose only state is an append-only transcript: every write appends narration lines, every read
 * parses the text back. The shared semantics (core/semantics.ts) holds all semantics; this only says and remembers.
 */
export class TranscriptStore implements StateStore {
  // The model is derived from the text alone, so it is kept while the text is unchanged and extended as it grows.
  private cache: { text: string; model: TranscriptModel; wholeLines: boolean } | undefined;
  private closed = false;
  /** HEAD: the canonical world-model and the receipt chain "still hold", narrated in conversation. */
  readonly worldModel: WorldModelStore;
  /** How a line is said: the dialect's writer in v0; in the current edition its compact markers and run words. */
  private readonly write: (e: NarrationEvent, depth: number) => string;

  constructor(
    private readonly conversation: Conversation,
    private readonly decisions: Decisions,
    dialect: Dialect,
    edition: Edition = 'v0',
  ) {
    this.write = edition === 'current' ? writeCurrent : dialect === 'compact' ? writeCompact : writeVerbose;
    this.worldModel = new TranscriptWorldModel(this, edition === 'current');
  }

  private readonly segmentFile = (agent: string, n: number) => segmentFileName(agent, n, this.decisions.segmentWidth);

  private model(): TranscriptModel {
    if (this.closed) throw new ProseError('E_STATE', 'the in-context store is closed');
    const text = this.conversation.text;
    const seg = this.segmentFile;
    const c = this.cache;
    if (c?.text === text) return c.model;
    // Append-only: when the text grew by whole lines, only the new lines need reading.
    if (c?.wholeLines && text.startsWith(c.text)) {
      this.cache = undefined;
      this.cache = { text, model: extendModel(c.model, text.slice(c.text.length), seg), wholeLines: endsLine(text) };
    } else {
      this.cache = { text, model: readModel(text, seg), wholeLines: endsLine(text) };
    }
    return this.cache.model;
  }

  /** What the whole conversation has narrated, across its runs (the current edition's ledger and versions). */
  conversationModel(): TranscriptModel {
    return this.model();
  }

  /** The run's model; E_NOT_FOUND when the transcript never started it. */
  runOf(run: RunRef): RunModel {
    const r = this.model().runs.get(run);
    if (!r)
      throw new ProseError('E_NOT_FOUND', `no run ${JSON.stringify(run)} in the transcript`, {
        location: { field: 'run' },
      });
    return r;
  }

  /** Appends narration for `run`, first saying which run it is when the transcript was speaking of another. */
  say(run: RunRef | undefined, events: { e: NarrationEvent; depth?: number }[]): string {
    const model = this.model();
    const before = this.conversation.text;
    let out = '';
    if (run !== undefined && model.current !== run) out += this.write({ kind: 'run-switch', runId: run }, 0);
    const line = model.lineCount + out.split('\n').length;
    for (const { e, depth } of events) out += this.write(e, depth ?? 0);
    const after = before + out;
    this.conversation.text = after;
    // What was appended is known: the model is extended by it now, and the next call finds the very string it
    // holds (an identity check) instead of comparing the whole text. Another writer's text is still compared.
    const wholeLines = this.cache?.wholeLines === true;
    this.cache = undefined;
    if (wholeLines) {
      this.cache = { text: after, model: extendModel(model, out, this.segmentFile), wholeLines: endsLine(out) };
    }
    return `transcript:${line}`;
  }

  private depthOf(run: RunModel, id: ExecutionId | null | undefined): number {
    return id == null ? 0 : (run.frames.get(id)?.depth ?? 0);
  }

  async createRun(rec: RunRecord): Promise<RunRef> {
    if (this.model().runs.has(rec.runId))
      throw new ProseError('E_CONFLICT', `run ${rec.runId} already exists in the transcript`, {
        location: { field: 'runId' },
      });
    this.say(undefined, [
      {
        e: {
          kind: 'run-start',
          runId: rec.runId,
          startedAt: rec.startedAt,
          program: rec.program,
          ...(rec.programPath !== undefined ? { programPath: rec.programPath } : {}),
        },
      },
    ]);
    if (rec.status !== 'running')
      this.say(rec.runId, [{ e: { kind: 'run-status', status: rec.status, runId: rec.runId } }]);
    return rec.runId;
  }

  async readRun(run: RunRef): Promise<RunRecord | undefined> {
    const r = this.model().runs.get(run);
    return r && { ...r.record };
  }

  async setRunStatus(run: RunRef, status: RunStatus): Promise<void> {
    this.runOf(run);
    this.say(run, [{ e: { kind: 'run-status', status, runId: run } }]);
  }

  async createImport(): Promise<RunRef> {
    throw new ProseError('E_UNSUPPORTED', 'in-context state does not nest imported runs', {
      hint: 'the in-context backend does not declare the imports capability',
    });
  }

  async appendEvent(run: RunRef, event: ExecutionEvent): Promise<void> {
    const r = this.runOf(run);
    this.say(run, [{ e: toNarration(r, event), depth: eventDepth(event, (id) => this.depthOf(r, id)) }]);
  }

  /** The run's append-only log as it is (no copy): no reader changes it, and the fold memo keys on it. */
  async readEvents(run: RunRef): Promise<readonly ExecutionEvent[]> {
    return this.runOf(run).log.events;
  }

  async writeBinding(run: RunRef, b: BindingRecord, attach: boolean): Promise<{ location: string }> {
    if (attach) throw new ProseError('E_UNSUPPORTED', 'in-context state passes values, not references: no attachments');
    const r = this.runOf(run);
    // A root binding said while a frame is open names root, so no reader takes it for the frame's (seed: "always include the execution_id").
    const scoped = b.executionId !== null || [...r.frames.values()].some((f) => f.open);
    const e: NarrationEvent = {
      kind: 'bind',
      name: b.name,
      bindingKind: b.kind,
      value: b.value,
      ...(scoped ? { executionId: b.executionId } : {}),
      ...(b.source !== undefined ? { source: b.source } : {}),
    };
    return { location: this.say(run, [{ e, depth: this.depthOf(r, b.executionId) }]) };
  }

  async readBinding(run: RunRef, name: string, executionId: ExecutionId | null): Promise<BindingRecord | undefined> {
    const b = this.runOf(run).bindings.get(bindingKey(name, executionId));
    return b && { ...b };
  }

  async listBindings(run: RunRef): Promise<BindingRecord[]> {
    return [...this.runOf(run).bindings.values()].map((b) => ({ ...b }));
  }

  async writeMemory(loc: AgentLocation, memory: string): Promise<{ location: string }> {
    const run = executionRun(loc);
    this.runOf(run);
    return { location: this.say(run, [{ e: { kind: 'memory', agent: loc.agent, memory } }]) };
  }

  async readMemory(loc: AgentLocation): Promise<string | undefined> {
    return this.runOf(executionRun(loc)).memory.get(loc.agent);
  }

  async appendSegment(loc: AgentLocation, seg: Omit<Segment, 'number' | 'file'>): Promise<Segment> {
    const run = executionRun(loc);
    const number = (this.runOf(run).segments.get(loc.agent)?.at(-1)?.number ?? 0) + 1;
    this.say(run, [
      {
        e: {
          kind: 'segment',
          agent: loc.agent,
          number,
          timestamp: seg.timestamp,
          prompt: seg.prompt,
          summary: seg.summary,
        },
      },
    ]);
    return { number, file: segmentFileName(loc.agent, number, this.decisions.segmentWidth), ...seg };
  }

  async listSegments(loc: AgentLocation): Promise<Segment[]> {
    return (this.runOf(executionRun(loc)).segments.get(loc.agent) ?? []).map((s) => ({ ...s }));
  }

  storage(): StorageView {
    return { kind: 'transcript', text: async () => this.conversation.text };
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

/** Whether a text is whole lines (a flat string's check; on the growing transcript it would flatten it). */
const endsLine = (text: string) => text === '' || text.endsWith('\n');

/** Only execution-scope agents live in a conversation; the shared semantics refuse the other scopes (not declared). */
function executionRun(loc: AgentLocation): RunRef {
  if (loc.scope !== 'execution' || loc.run === undefined) {
    throw new ProseError('E_UNSUPPORTED', `in-context state keeps only execution-scope agents, not ${loc.scope}`, {
      location: { field: 'scope' },
    });
  }
  return loc.run;
}

function eventDepth(e: ExecutionEvent, depthOf: (id: ExecutionId | null | undefined) => number): number {
  if (e.type === 'frame-enter') return e.depth - 1;
  if (e.type === 'frame-exit') return Math.max(0, depthOf(e.executionId) - 1);
  if (e.type === 'statement') return depthOf(e.executionId);
  return 0;
}
