import type {
  AgentLocation, BindingRecord, ExecutionEvent, ExecutionId, RunRecord, RunRef, RunStatus, Segment,
} from './model.ts';
import type { StorageView } from './backend.ts';

/**
 * What a built-in backend stores; the engine (`engine.ts`) holds the semantics on top of it, so the reference
 * backends cannot drift apart in meaning. Every method commits before it resolves.
 */
export interface StateStore {
  createRun(run: RunRecord): Promise<RunRef>;
  readRun(run: RunRef): Promise<RunRecord | undefined>;
  setRunStatus(run: RunRef, status: RunStatus): Promise<void>;
  createImport(parent: RunRef, handle: string, slug: string, record: RunRecord): Promise<RunRef>;

  /** Append-only execution log of the run, written by the VM alone. */
  appendEvent(run: RunRef, event: ExecutionEvent): Promise<void>;
  readEvents(run: RunRef): Promise<ExecutionEvent[]>;

  /** Writes (or replaces) the binding at (name, executionId); `attach` says to keep the value as an attachment. */
  writeBinding(run: RunRef, binding: BindingRecord, attach: boolean): Promise<{ location: string }>;
  readBinding(run: RunRef, name: string, executionId: ExecutionId | null): Promise<BindingRecord | undefined>;
  listBindings(run: RunRef): Promise<BindingRecord[]>;
  /**
   * Optional: resolve along a scope chain in one go (the SQL backends use the seed's query). The chain lists the
   * frames to look in, innermost first, and ends with `null` for root.
   */
  resolveBinding?(run: RunRef, name: string, chain: (ExecutionId | null)[]): Promise<BindingRecord | undefined>;

  writeMemory(loc: AgentLocation, memory: string): Promise<{ location: string }>;
  readMemory(loc: AgentLocation): Promise<string | undefined>;
  /** Allocates the next number atomically, even against other processes, and writes the segment. */
  appendSegment(loc: AgentLocation, segment: Omit<Segment, 'number' | 'file'>): Promise<Segment>;
  listSegments(loc: AgentLocation): Promise<Segment[]>;

  storage?(): StorageView;
  close(): Promise<void>;
}
