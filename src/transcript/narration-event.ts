import type {
  BindingKind,
  BranchStatus,
  ExecutionId,
  FrameStatus,
  JoinStrategy,
  OnFail,
  RunStatus,
  StatementStatus,
} from '../core/model.ts';

/**
 * What one narration line (with its continuation lines) says, in either dialect. The writer renders these and the
 * parser reads them back, so the in-context store and the transcript verifier share one vocabulary.
 * Fields an LLM may leave out (ids, indices, values) are optional; the store always writes them.
 * The `wm-*`, `envelope` and `receipt` events narrate HEAD's canonical store ("still hold", narrated in
 * conversation); their bytes are base64 text.
 */
export type NarrationEvent =
  | { kind: 'run-start'; runId?: string; startedAt?: string; program?: string; programPath?: string; said?: RunWord }
  | { kind: 'run-switch'; runId: string; said?: RunWord }
  | { kind: 'run-status'; status: RunStatus | 'end'; runId?: string; said?: RunWord }
  | {
      kind: 'statement';
      index?: number;
      text: string;
      status: StatementStatus;
      executionId?: ExecutionId | null;
      error?: string;
      binds?: string;
    }
  | {
      kind: 'frame-enter';
      executionId: ExecutionId;
      block: string;
      parent?: ExecutionId | null;
      depth?: number;
      args?: Record<string, string>;
    }
  | { kind: 'frame-exit'; executionId: ExecutionId; block?: string; status: Exclude<FrameStatus, 'executing'> }
  | {
      kind: 'callstack';
      depth?: number;
      frames: { executionId: ExecutionId; block: string; depth: number; status: string }[];
    }
  | {
      kind: 'parallel-start';
      id?: string;
      strategy?: JoinStrategy;
      branchCount?: number;
      branches: string[];
      count?: number;
      onFail?: OnFail;
    }
  | { kind: 'branch'; id?: string; branch: string; status: Exclude<BranchStatus, 'pending'> }
  | {
      kind: 'parallel-join';
      id?: string;
      branches: { name: string; status?: Exclude<BranchStatus, 'pending'>; value?: string }[];
    }
  | { kind: 'loop-start'; id?: string; max?: number; condition?: string }
  | { kind: 'loop-iteration'; id?: string; iteration: number; max?: number }
  | { kind: 'loop-exit'; id?: string; reason: 'condition' | 'max' | 'break'; iteration?: number; condition?: string }
  | { kind: 'retry'; index?: number; attempt: number; max: number; error?: string }
  | { kind: 'error'; index?: number; message: string }
  | { kind: 'anon'; name: string }
  | {
      kind: 'bind';
      name: string;
      bindingKind?: BindingKind;
      value?: string;
      executionId?: ExecutionId | null;
      source?: string;
    }
  | { kind: 'read'; names: string[]; executionId?: ExecutionId | null }
  | { kind: 'memory'; agent: string; memory: string }
  | { kind: 'segment'; agent: string; number: number; timestamp: string; prompt: string; summary: string }
  | { kind: 'try'; phase: 'try' | 'catch' | 'finally'; error?: string }
  | { kind: 'call'; target: string; args: string; result?: string; ok: boolean; error?: string }
  | { kind: 'wm-version'; node: string; address: string; bytes: string }
  | { kind: 'wm-publish'; node: string; address: string }
  | { kind: 'wm-workspace'; node: string; bytes: string }
  | { kind: 'envelope'; compiledIntentJson: string; rootSource: string; sources: Record<string, string> }
  | { kind: 'receipt'; node: string; receipt: string }
  | { kind: 'note'; marker: string; text: string };

export type Dialect = 'verbose' | 'compact';

/**
 * How a run line was announced without a `[Marker]`: `OpenProse Run Start` (the current in-context.md, "run") or
 * `OpenProse Program Start` (v0's, "program"). Absent on marker lines (`[Program] ...`, `---end`).
 */
export type RunWord = 'run' | 'program';

/** Where a parsed event came from: 1-based line and column of its marker, and the marker's indentation. */
export interface LinePosition {
  line: number;
  column: number;
  indent: number;
  dialect: Dialect;
}

export type TranscriptEvent = NarrationEvent & LinePosition;

/** A parse diagnostic. The parser never throws on bad input; it returns these as values. */
export interface Diagnostic {
  /** Stable rule id: `parse.unknown-marker`, `parse.malformed`, `parse.truncated`, `parse.nesting`. */
  rule: string;
  severity: 'error' | 'warning';
  line: number;
  column: number;
  message: string;
}

export interface ParseResult {
  events: TranscriptEvent[];
  diagnostics: Diagnostic[];
  /** The dialect that carried the most markers; `verbose` for text with none. */
  dialect: Dialect;
  /** How many lines the text has (a diagnostic's line is always within 1..lineCount). */
  lineCount: number;
}
