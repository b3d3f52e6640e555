import type { Edition } from '../core/editions.ts';

export type Severity = 'error' | 'warning';

/**
 * One thing `verify` found: the one finding shape every verifier (run directory, state.db, Reactor dir, world model,
 * transcript, subagent output) returns. src/verify/kit/finding-sink.ts makes and collects them.
 */
export interface Finding {
  /** Stable rule id, e.g. `binding.kind`, listed in docs/verify-rules.md with the spec text it enforces. */
  rule: string;
  severity: Severity;
  message: string;
  /** File path (relative to what was verified), with line/column when known; or a table and row; or a receipt index. */
  file?: string;
  line?: number;
  column?: number;
  table?: string;
  row?: string;
  node?: string;
  receipt?: number;
  /** What to do about it. */
  hint?: string;
}

/** A verifier recognises a kind of state and checks it. `detect` is cheap and never throws. */
export interface Verifier {
  /** e.g. `run-dir`, `prose-dir`, `state-db`, `reactor`, `transcript`. */
  kind: string;
  detect(path: string): Promise<boolean>;
  verify(path: string, opts: VerifyOptions): Promise<Finding[]>;
}

export interface VerifyOptions {
  /** The edition judged, where a verifier reads more than one (a transcript); absent: the one the state reads as. */
  edition?: Edition;
  /** Home directory standing in for `~` (user-scope agents). */
  homeDir?: string;
  attachmentThresholdBytes?: number;
  /** Files larger than this are not read (a `tree.too-large` finding); default DEFAULT_MAX_FILE_BYTES, 64 MiB. */
  maxFileBytes?: number;
}
