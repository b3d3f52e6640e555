import { join } from 'node:path';
import type { Decisions } from '../../core/decisions.ts';
import { ProseError } from '../../core/errors.ts';
import type { BindingRecord, ExecutionEvent, RunRecord, RunRef, RunStatus } from '../../core/model.ts';
import { isoSeconds } from '../../core/time-format.ts';
import { writeFileAtomic } from '../../io/atomic-write.ts';
import { withFileLock } from '../../io/file-lock.ts';
import { writeCallerInput } from './caller-input.ts';
import { FsStore } from './fs-store.ts';
import { appendJournalEvent, appendStatus, createJournal, RUN_JOURNAL, type Journal } from './run-journal.ts';
import { JournalCache } from './journal-cache.ts';
import { logParallelEvent } from './vm-log-parallel.ts';
import { activatedFunction, copyOnReturn } from './function-run.ts';
import {
  appendStepMarker,
  appendVmLogLine,
  receiptMarker,
  statusMarker,
  VM_LOG,
  word,
  writeVmLogHeader,
} from './vm-log.ts';
import { VmLogStates } from './vm-log-state.ts';

/**
 * The current edition's tree under `<openprose-root>` = the project directory (filesystem.md "Directory
 * Structure"): `runs/{id}/` with `root.prose.md`, `vm.log.md` (header, then one marker per appended line) and our
 * `execution.jsonl`; bindings, agents and segments as FsStore keeps them, at the current edition's paths
 * (run-paths.ts); versions, `published/` and `receipts.jsonl` in the durable `state/world-model/{node}/`
 * (world-model-store.ts). Decisions current-execution-log, current-bindings, current-vm-log-markers.
 */
export class FsCurrentStore extends FsStore {
  /** Serializes this process's writers of a run; the lock file spans processes. */
  private readonly chains = new Map<string, Promise<unknown>>();
  /** Each run's execution.jsonl as last parsed: a read parses only the lines appended since. */
  private readonly journals = new JournalCache();
  /** Each run's vm.log.md state as last read: a marker reads only the lines appended since. */
  private readonly vmLogs = new VmLogStates();

  constructor(projectDir: string, homeDir: string, decisions: Decisions, now: () => Date = () => new Date()) {
    super(projectDir, homeDir, decisions, now, 'current');
  }

  /** root.prose.md holds the program until the envelope's root source replaces it (decision current-run-files). */
  protected override layRunFiles(dir: string, rec: RunRecord): void {
    writeFileAtomic(join(dir, 'root.prose.md'), rec.program);
    createJournal(dir, rec);
    // Written last: vm.log.md and root.prose.md together are what make the directory a current-edition run.
    writeVmLogHeader(dir, rec.runId, rec.programPath ?? 'root.prose.md');
  }

  override async readRun(run: RunRef): Promise<RunRecord | undefined> {
    const j = this.journal(run);
    return j && { ...j.run };
  }

  /** A function run returning (completed) copies its outputs to bindings/{function}/ and logs `N→ fn ✓` first. */
  override async setRunStatus(run: RunRef, status: RunStatus): Promise<void> {
    const outputs = status === 'completed' ? await this.listBindings(run) : [];
    await this.locked(run, (dir) => {
      this.mustJournal(run);
      const marker = statusMarker(status, isoSeconds(this.now()));
      const open = marker !== undefined && !this.vmLogs.read(join(dir, VM_LOG)).closed;
      // Read before anything is written: an activation record naming no usable function refuses the call whole.
      const fn = open && status === 'completed' ? activatedFunction(dir) : undefined;
      appendStatus(dir, status);
      if (!open) return;
      if (fn !== undefined) {
        copyOnReturn(dir, fn, outputs);
        appendStepMarker(dir, (n) => `${n}→ ${word(fn)} ✓`, this.vmLogs);
      }
      appendVmLogLine(dir, marker!);
    });
  }

  override async appendEvent(run: RunRef, event: ExecutionEvent): Promise<void> {
    await this.locked(run, (dir) => {
      const before = this.mustJournal(run).events;
      appendJournalEvent(dir, event);
      logParallelEvent(dir, this.vmLogs, before, event);
    });
  }

  override async appendEventAtomically(
    run: RunRef,
    make: (events: readonly ExecutionEvent[]) => ExecutionEvent,
  ): Promise<ExecutionEvent> {
    return this.locked(run, (dir) => {
      const before = this.mustJournal(run).events;
      const made = make(before);
      appendJournalEvent(dir, made);
      logParallelEvent(dir, this.vmLogs, before, made);
      return made;
    });
  }

  override async readEvents(run: RunRef): Promise<readonly ExecutionEvent[]> {
    return this.journal(run)?.events ?? [];
  }

  /** A root input is also the caller's input, world-model/caller/{name}.md, logged once (decision current-bindings). */
  override async writeBinding(run: RunRef, b: BindingRecord, attach: boolean): Promise<{ location: string }> {
    const written = await super.writeBinding(run, b, attach);
    if (b.kind === 'input' && b.executionId === null) await this.locked(run, (dir) => writeCallerInput(dir, b));
    return written;
  }

  /** fs "Event Markers": `N→ node ✓ rendered`, `∅ skipped` or `✗ error-name`, appended after the receipt. */
  protected override async receiptAppended(run: RunRef, node: string, receiptJson: string): Promise<void> {
    const r = JSON.parse(receiptJson) as { status: string; semantic_diff?: { failure_reason?: string } };
    await this.locked(run, (dir) =>
      appendStepMarker(dir, receiptMarker(node, r.status, r.semantic_diff?.failure_reason), this.vmLogs),
    );
  }

  override async close(): Promise<void> {
    await Promise.allSettled([...this.chains.values()]);
    this.journals.clear();
    this.vmLogs.clear();
    await super.close();
  }

  private journal(run: RunRef): Journal | undefined {
    const dir = this.paths.runDir(run);
    return this.journals.read(dir, this.rel(join(dir, RUN_JOURNAL)));
  }

  private mustJournal(run: RunRef): Journal {
    const j = this.journal(run);
    if (!j) throw new ProseError('E_NOT_FOUND', `no run ${JSON.stringify(run)}`);
    return j;
  }

  private async locked<T>(run: RunRef, fn: (dir: string) => T): Promise<T> {
    const dir = this.paths.runDir(run);
    const prev = this.chains.get(run) ?? Promise.resolve();
    const next = prev.catch(() => undefined).then(() => withFileLock(join(dir, `${VM_LOG}.lock`), () => fn(dir)));
    this.chains.set(run, next);
    try {
      return await next;
    } finally {
      if (this.chains.get(run) === next) this.chains.delete(run);
    }
  }
}
