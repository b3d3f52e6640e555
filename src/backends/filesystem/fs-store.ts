import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { StorageView } from '../../core/backend.ts';
import type { Decisions } from '../../core/decisions.ts';
import type { Edition } from '../../core/editions.ts';
import { ProseError } from '../../core/errors.ts';
import { formatBindingFile } from '../../core/formats/binding-file.ts';
import { formatSegmentFile, parseSegmentFile } from '../../core/formats/segment-file.ts';
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
import { parseSegmentFileName, segmentFileName } from '../../core/numbering.ts';
import type { StateStore, WorldModelStore } from '../../core/store.ts';
import { isoSeconds } from '../../core/time-format.ts';
import { createFileExclusive, mkdirDurable, syncDir, writeFileAtomic } from '../../io/atomic-write.ts';
import { withFileLock } from '../../io/file-lock.ts';
import { RunPaths } from './run-paths.ts';
import { BindingFiles } from './binding-files.ts';
import { initialStateMd, StateMdRenderer, type IndexEntries } from './state-md.ts';
import { StateMdFile, type SharedDoc } from './state-md-file.ts';
import { FsWorldModelStore } from './world-model-store.ts';
import { SegmentNumbers } from './segment-numbers.ts';

/** What one update of state.md may change: the run's status, and events appended after the log's (never edited). */
interface DocChange {
  status: RunStatus;
  readonly events: readonly ExecutionEvent[];
  readonly added: ExecutionEvent[];
}

/** The seed's `.prose/` directory layout (filesystem.md), every write atomic; current-store.ts keeps the current one. */
export class FsStore implements StateStore {
  protected readonly paths: RunPaths;
  /** The canonical world-model, receipts, workspace and envelope of each run (world-model-store.ts). */
  readonly worldModel: WorldModelStore;
  /** Serializes the VM's read-modify-write of state.md within this process. */
  private readonly locks = new Map<string, Promise<unknown>>();
  /** Each run's state.md as last read or written, used while the file's stat says it is unchanged. */
  private readonly docs = new StateMdFile();
  /** Each run's state.md renderer, which extends its text by the events appended since the last render. */
  private readonly renderers = new Map<string, StateMdRenderer>();
  /** The runs' binding files, parsed again only when changed. */
  private readonly bindingFiles = new BindingFiles((abs) => this.rel(abs));
  /** Each agent directory's highest segment number, while the directory's stat says no name was added. */
  private readonly segments: SegmentNumbers;

  constructor(
    projectDir: string,
    homeDir: string,
    private readonly decisions: Decisions,
    protected readonly now: () => Date = () => new Date(),
    edition: Edition = 'v0',
  ) {
    this.paths = new RunPaths(projectDir, homeDir, edition);
    this.segments = new SegmentNumbers(decisions.segmentWidth);
    this.worldModel = new FsWorldModelStore(this.paths, (run, node, receipt) =>
      this.receiptAppended(run, node, receipt),
    );
  }

  /** Called after a receipt is appended to the run's ledger: the current edition logs its marker (current-store.ts). */
  protected async receiptAppended(_run: RunRef, _node: string, _receiptJson: string): Promise<void> {}

  async createRun(rec: RunRecord): Promise<RunRef> {
    this.makeRunDir(this.paths.runDir(rec.runId), rec);
    return rec.runId;
  }

  async createImport(parent: RunRef, handle: string, slug: string, rec: RunRecord): Promise<RunRef> {
    const ref = `${parent}/imports/${handle}--${slug}`;
    this.makeRunDir(this.paths.runDir(ref), rec);
    return ref;
  }

  private makeRunDir(dir: string, rec: RunRecord): void {
    mkdirDurable(join(dir, '..'));
    try {
      mkdirSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST')
        throw new ProseError('E_CONFLICT', `run directory ${this.rel(dir)} already exists`);
      throw err;
    }
    syncDir(join(dir, '..'));
    this.layRunFiles(dir, rec);
  }

  /** The files a new run directory starts with: program.prose, state.md and bindings/ (v0 filesystem.md). */
  protected layRunFiles(dir: string, rec: RunRecord): void {
    // bindings/ is made durable by the fsync of the run directory that writing program.prose ends with.
    mkdirSync(join(dir, 'bindings'));
    writeFileAtomic(join(dir, 'program.prose'), rec.program);
    writeFileAtomic(join(dir, 'state.md'), initialStateMd(rec));
  }

  async readRun(run: RunRef): Promise<RunRecord | undefined> {
    const doc = this.readDoc(run);
    if (!doc) return undefined;
    const program = readFileSync(join(this.paths.runDir(run), 'program.prose'), 'utf8');
    return { runId: doc.runId, program, programPath: doc.programPath, status: doc.status, startedAt: doc.started };
  }

  async setRunStatus(run: RunRef, status: RunStatus): Promise<void> {
    await this.updateDoc(run, (doc) => {
      doc.status = status;
    });
  }

  async appendEvent(run: RunRef, event: ExecutionEvent): Promise<void> {
    await this.updateDoc(run, (doc) => {
      doc.added.push(event);
    });
  }

  async appendEventAtomically(
    run: RunRef,
    make: (events: readonly ExecutionEvent[]) => ExecutionEvent,
  ): Promise<ExecutionEvent> {
    let made: ExecutionEvent | undefined;
    await this.updateDoc(run, (doc) => {
      made = make(doc.events);
      doc.added.push(made);
    });
    return made!;
  }

  /** The cached document's own log, not a copy: it only grows, and the fold memo keeps its fold (issue 35). */
  async readEvents(run: RunRef): Promise<readonly ExecutionEvent[]> {
    return this.readDoc(run)?.log.events ?? [];
  }

  private readDoc(run: RunRef): SharedDoc | undefined {
    const file = join(this.paths.runDir(run), 'state.md');
    return this.docs.read(file, this.rel(file));
  }

  private async updateDoc(run: RunRef, change: (doc: DocChange) => void): Promise<void> {
    const prev = this.locks.get(run) ?? Promise.resolve();
    // Another process may be a VM on the same run too (the concurrency area): the lock file spans processes.
    const dir = this.paths.runDir(run);
    const next = prev
      .catch(() => undefined)
      .then(() =>
        withFileLock(join(dir, 'state.md.lock'), () => {
          const shared = this.readDoc(run);
          if (!shared) throw new ProseError('E_NOT_FOUND', `no run ${JSON.stringify(run)}`);
          const draft: DocChange = { status: shared.status, events: shared.log.events, added: [] };
          change(draft);
          const file = join(dir, 'state.md');
          const index = this.indexOf(run);
          let renderer = this.renderers.get(file);
          if (!renderer) this.renderers.set(file, (renderer = new StateMdRenderer()));
          // The cached log grows by the new events before they are written: if the write fails, the cache forgets the
          // file, and the next read parses it again into a new log.
          for (const e of draft.added) shared.log.append(e);
          const doc: SharedDoc = { ...shared, status: draft.status, updated: isoSeconds(this.now()) };
          try {
            this.docs.write(file, renderer.bytes({ ...doc, events: doc.log.events }, index), doc);
          } catch (err) {
            this.docs.forget(file);
            throw err;
          }
        }),
      );
    this.locks.set(run, next);
    try {
      await next;
    } finally {
      if (this.locks.get(run) === next) this.locks.delete(run);
    }
  }

  private indexOf(run: RunRef): IndexEntries {
    const bindings = this.bindingFiles.index(this.paths.runDir(run));
    const agentsDir = join(this.paths.runDir(run), 'agents');
    const agents = existsSync(agentsDir)
      ? readdirSync(agentsDir)
          .sort()
          .map((name) => ({ name, scope: 'execution', path: `agents/${name}/` }))
      : [];
    return { bindings, agents };
  }

  async writeBinding(run: RunRef, b: BindingRecord, attach: boolean): Promise<{ location: string }> {
    const dir = this.paths.runDir(run);
    const fileName = RunPaths.bindingFile(b.name, b.executionId);
    const attachmentRel = `attachments/${fileName}`;
    if (attach) writeFileAtomic(join(dir, attachmentRel), b.value);
    const value = attach ? `(attached: ${Buffer.byteLength(b.value, 'utf8')} bytes in ${attachmentRel})` : b.value;
    const file = join(dir, 'bindings', fileName);
    writeFileAtomic(
      file,
      formatBindingFile({
        name: b.name,
        kind: b.kind,
        executionId: b.executionId,
        source: b.source ?? '',
        value,
        ...(attach ? { attachment: attachmentRel } : {}),
      }),
    );
    // A value that shrank below the threshold no longer needs its old attachment.
    if (!attach) rmSync(join(dir, attachmentRel), { force: true });
    return { location: this.rel(file) };
  }

  async readBinding(run: RunRef, name: string, executionId: ExecutionId | null): Promise<BindingRecord | undefined> {
    const dir = this.paths.runDir(run);
    return this.bindingFiles.record(dir, join(dir, 'bindings', RunPaths.bindingFile(name, executionId)));
  }

  async listBindings(run: RunRef): Promise<BindingRecord[]> {
    return this.bindingFiles.list(this.paths.runDir(run));
  }

  async writeMemory(loc: AgentLocation, memory: string): Promise<{ location: string }> {
    const file = join(this.paths.agentDir(loc), 'memory.md');
    writeFileAtomic(file, memory);
    return { location: this.rel(file) };
  }

  async readMemory(loc: AgentLocation): Promise<string | undefined> {
    try {
      return readFileSync(join(this.paths.agentDir(loc), 'memory.md'), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async appendSegment(loc: AgentLocation, seg: Omit<Segment, 'number' | 'file'>): Promise<Segment> {
    const dir = this.paths.agentDir(loc);
    mkdirDurable(dir);
    // One past the highest segment present is the next (decision segment-numbering).
    let n = this.segments.last(dir, loc.agent);
    // Another process may take the number first: exclusive creation tells, and we move on to the next one.
    for (;;) {
      n += 1;
      const file = segmentFileName(loc.agent, n, this.decisions.segmentWidth);
      if (createFileExclusive(join(dir, file), formatSegmentFile({ number: n, ...seg }, this.decisions.segmentWidth))) {
        this.segments.created(dir, n);
        return { number: n, file, ...seg };
      }
    }
  }

  async listSegments(loc: AgentLocation): Promise<Segment[]> {
    const dir = this.paths.agentDir(loc);
    return this.segmentNumbers(dir, loc.agent).map((n) => {
      const file = segmentFileName(loc.agent, n, this.decisions.segmentWidth);
      const path = join(dir, file);
      try {
        const s = parseSegmentFile(readFileSync(path, 'utf8'), this.rel(path));
        return { number: n, file, timestamp: s.timestamp, prompt: s.prompt, summary: s.summary };
      } catch (err) {
        throw new ProseError('E_CORRUPT', (err as Error).message, { location: { file: this.rel(path) }, cause: err });
      }
    });
  }

  private segmentNumbers(dir: string, agent: string): number[] {
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .map((f) => parseSegmentFileName(agent, f, this.decisions.segmentWidth))
      .filter((n): n is number => n !== undefined)
      .sort((a, b) => a - b);
  }

  storage(): StorageView {
    return { kind: 'directory', projectDir: this.paths.projectDir, homeDir: this.paths.homeDir };
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.locks.values()]);
    this.docs.clear();
    this.renderers.clear();
    this.bindingFiles.clear();
    this.segments.clear();
  }

  protected rel(abs: string): string {
    const r = relative(this.paths.projectDir, abs);
    return r.startsWith('..') ? abs : r.split(sep).join('/');
  }
}
