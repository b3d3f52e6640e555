/** The run-state model the seed documents describe, as plain data. */

export const BINDING_KINDS = ['input', 'output', 'let', 'const'] as const;
export type BindingKind = (typeof BINDING_KINDS)[number];

export const RUN_STATUSES = ['running', 'completed', 'failed', 'interrupted'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const AGENT_SCOPES = ['execution', 'project', 'user', 'custom'] as const;
export type AgentScope = (typeof AGENT_SCOPES)[number];

/** A block invocation id: 1, 2, ... per run, never reused. Root scope is `null`. */
export type ExecutionId = number;

/**
 * An opaque reference to a run. For a top-level run it is the run id; for an import the backend returns
 * its own reference from `createImport` (the filesystem backend uses `{id}/imports/{handle}--{slug}`).
 */
export type RunRef = string;

export interface RunRecord {
  runId: string;
  program: string;
  programPath?: string;
  status: RunStatus;
  startedAt: string;
}

export interface BindingRecord {
  name: string;
  kind: BindingKind;
  value: string;
  executionId: ExecutionId | null;
  source?: string;
  /** True when the value is stored as an attachment file. */
  attached?: boolean;
}

export interface AgentLocation {
  agent: string;
  scope: AgentScope;
  /** The run for execution scope. */
  run?: RunRef;
  /** The directory (or database) for custom scope. */
  path?: string;
}

export interface Segment {
  number: number;
  file: string;
  timestamp: string;
  prompt: string;
  summary: string;
}

export type StatementStatus = 'executing' | 'completed' | 'failed' | 'skipped';
export type BranchStatus = 'pending' | 'executing' | 'completed' | 'failed';
export type JoinStrategy = 'all' | 'first' | 'any';
export type OnFail = 'fail-fast' | 'continue' | 'ignore';
export type FrameStatus = 'executing' | 'completed' | 'failed';

/** What the VM records as execution proceeds. Frames are events too, so the log alone rebuilds the call stack. */
export type ExecutionEvent =
  | {
      type: 'statement';
      index: number;
      text: string;
      status: StatementStatus;
      executionId?: ExecutionId | null;
      error?: string;
    }
  | {
      type: 'frame-enter';
      executionId: ExecutionId;
      block: string;
      parent: ExecutionId | null;
      depth: number;
      args?: Record<string, string>;
    }
  | { type: 'frame-exit'; executionId: ExecutionId; status: Exclude<FrameStatus, 'executing'> }
  | { type: 'parallel-start'; id: string; strategy: JoinStrategy; branches: string[]; count?: number; onFail?: OnFail }
  | { type: 'branch'; id: string; branch: string; status: Exclude<BranchStatus, 'pending'> }
  | { type: 'parallel-join'; id: string }
  | { type: 'loop-start'; id: string; max?: number; condition?: string }
  | { type: 'loop-iteration'; id: string; iteration: number }
  | { type: 'loop-exit'; id: string; reason: 'condition' | 'max' | 'break' }
  | { type: 'retry'; index: number; attempt: number; max: number; error?: string }
  | { type: 'error'; index: number; message: string }
  | { type: 'anon'; name: string };

export interface FrameState {
  executionId: ExecutionId;
  block: string;
  parent: ExecutionId | null;
  depth: number;
  status: FrameStatus;
}

/**
 * A frame of the call stack as resume reports it: the innermost frame is `executing`, the frames that invoked it are
 * `waiting` (filesystem.md "Call Stack", in-context.md "Call Stack State").
 */
export interface StackFrame extends Omit<FrameState, 'status'> {
  status: 'executing' | 'waiting';
}

export interface ParallelState {
  strategy: JoinStrategy;
  count?: number;
  onFail?: OnFail;
  branches: Record<string, BranchStatus>;
  joined: boolean;
}

export interface LoopState {
  max?: number;
  iteration: number;
  exited: boolean;
  exitReason?: 'condition' | 'max' | 'break';
}

export interface ResumeState {
  run: RunRef;
  status: RunStatus;
  /** The last statement still executing, else the last statement recorded. */
  position: { index: number; text: string; status: StatementStatus } | null;
  bindings: { name: string; kind: BindingKind; executionId: ExecutionId | null; attached: boolean }[];
  /** Open frames, innermost first. */
  callStack: StackFrame[];
  parallels: Record<string, ParallelState>;
  loops: Record<string, LoopState>;
  retries: Record<string, { attempt: number; max: number }>;
  errors: { index: number; message: string }[];
  nextExecutionId: ExecutionId;
  anonCount: number;
}
