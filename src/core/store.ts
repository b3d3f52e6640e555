import type {
  AgentLocation,
  BindingRecord,
  ExecutionEvent,
  ExecutionId,
  RunRecord,
  RunRef,
  RunStatus,
  Segment,
} from './model.ts';
import type { StorageView } from './backend.ts';

/**
 * What a built-in backend stores; the shared semantics (`semantics.ts`) holds the semantics on top of it, so the reference
 * backends cannot drift apart in meaning. Every method commits before it resolves.
 */
export interface StateStore {
  createRun(run: RunRecord): Promise<RunRef>;
  readRun(run: RunRef): Promise<RunRecord | undefined>;
  setRunStatus(run: RunRef, status: RunStatus): Promise<void>;
  createImport(parent: RunRef, handle: string, slug: string, record: RunRecord): Promise<RunRef>;

  /** Append-only execution log of the run, written by the VM alone. */
  appendEvent(run: RunRef, event: ExecutionEvent): Promise<void>;
  /**
   * The run's events in order. A store that keeps its log between calls may hand out its `EventLog`'s own list
   * (event-log.ts: no copy, and the fold memo needs no compare); a holder copies it to keep it past its next call.
   */
  readEvents(run: RunRef): Promise<readonly ExecutionEvent[]>;
  /**
   * Reads the log, lets `make` build the next event from it (or throw to refuse), and appends that event, all as
   * one step against every other writer of the run, including other processes. Backends that declare
   * `concurrent-writers` implement it; without it the shared semantics read and appends in two steps (one VM only).
   */
  appendEventAtomically?(
    run: RunRef,
    make: (events: readonly ExecutionEvent[]) => ExecutionEvent,
  ): Promise<ExecutionEvent>;

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

  /** Present when the backend keeps the canonical world-model and the receipt ledger (capability world-model). */
  worldModel?: WorldModelStore;

  storage?(): StorageView;
  close(): Promise<void>;
}

/**
 * The canonical store of a run: versions as OPWM1 bytes keyed by node and address, the published pointer, the
 * receipt ledger per node, the workspace and the run envelope. Semantics (what is skipped, how receipts chain)
 * live in src/canon; this only persists. Receipts are the canonical JSON envelopes, stored and returned as text.
 */
export interface WorldModelStore {
  /** Stores a version's bytes; storing the same (node, address) twice is a no-op. */
  writeVersion(run: RunRef, node: string, address: string, bytes: Uint8Array): Promise<void>;
  readVersion(run: RunRef, node: string, address: string): Promise<Uint8Array | undefined>;
  /** Flips the node's published pointer to a stored version (after the version is durable). */
  publish(run: RunRef, node: string, address: string): Promise<void>;
  readPublished(run: RunRef, node: string): Promise<string | null>;
  /** Appends one receipt (canonical JSON text) to the node's chain. */
  appendReceipt(run: RunRef, node: string, receiptJson: string): Promise<void>;
  /** The node's receipts in append order, or every node's in append order when `node` is undefined. */
  readReceipts(run: RunRef, node?: string): Promise<string[]>;
  /**
   * Where a node's chain outlives the run (the current edition's durable ledger, decision durable-world-model-dir):
   * the chain's last receipt across runs, undefined when the node has none. Absent: each run's chain is its own.
   */
  readChainHead?(run: RunRef, node: string): Promise<string | undefined>;
  writeWorkspace(run: RunRef, node: string, bytes: Uint8Array): Promise<void>;
  writeEnvelope(
    run: RunRef,
    envelope: { compiledIntentJson: string; rootSource: string; sources: Record<string, string> },
  ): Promise<void>;
  readEnvelope(
    run: RunRef,
  ): Promise<{ compiledIntentJson: string; rootSource: string; sources: Record<string, string> } | undefined>;
}
