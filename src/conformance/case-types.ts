import type { StorageKind, SubagentStorageKind } from '../core/backend.ts';
import type { Capability } from '../core/capabilities.ts';
import type { ErrorCode } from '../core/errors.ts';
import type { OpName } from '../core/ops.ts';
import type { Workload } from './workload.ts';

/** Where something was written in the suite, for every error and every failure. */
export interface SourcePos {
  file: string;
  line: number;
}

export type ActorSpec = 'vm' | { binding?: string; agent?: string; executionId?: unknown };

export interface OpStep {
  kind: 'op';
  pos: SourcePos;
  op: OpName;
  args: Record<string, unknown>;
  actor?: ActorSpec;
  /** A subset the result must match (see match.ts for the `$` matchers). */
  expect?: unknown;
  /** The error code the call must answer. */
  error?: ErrorCode;
  /** With `error`: a regular expression the error message must match (for messages that must name something). */
  message?: string;
  /** Saves the result under this variable name. */
  save?: string;
}

export interface RestartStep {
  kind: 'restart';
  pos: SourcePos;
  /**
   * `restart: {project: NAME}`: reopen on another project directory with the same home directory (the VM moved to
   * another project), so user-scope state must carry over and project-scope state stays behind.
   */
  project?: string;
}

export interface RepeatStep {
  kind: 'repeat';
  pos: SourcePos;
  /** How many times (a number or a `${...}` template); `${i}` counts from 1 inside. */
  times: unknown;
  steps: Step[];
}

export interface LayoutStep {
  kind: 'layout';
  pos: SourcePos;
  /** The storage kind this check belongs to; on other kinds it is not applicable and is counted as such. */
  storage: Exclude<StorageKind, 'other'>;
  /** A path relative to the project directory (`~/` for the home directory): on directory storage, and on sqlite and postgres for the files beside the database (attachments/). */
  file?: string;
  exists?: boolean;
  equals?: unknown;
  contains?: unknown;
  matches?: string;
  /** sqlite: the database file relative to the project directory. */
  db?: string;
  query?: string;
  params?: unknown[];
  rows?: unknown;
}

/**
 * State written as a VM (or a subagent) following the seeds writes it, planted into the storage by the runner: the
 * backend is closed, the files are written and the SQL is run, then a new instance opens the storage. Paths are
 * relative to the project directory (`~/` for the home directory) and may not leave it. A case that plants runs only
 * on backends of the storage kinds it plants for (plant.ts).
 */
export interface PlantStep {
  kind: 'plant';
  pos: SourcePos;
  storage: PlantStorage;
  /** path -> content, written byte for byte (UTF-8). */
  files?: Record<string, string>;
  /** sqlite: the database file the SQL runs on, relative to the project directory. */
  db?: string;
  /** SQL run on the storage as the seed's VM or subagent would run it (sqlite: on `db`; postgres: on the storage's own connection). */
  sql?: string;
}

export const PLANT_STORAGES = ['directory', 'sqlite', 'postgres'] as const;
export type PlantStorage = (typeof PLANT_STORAGES)[number];

/** Kill a writer process at `kills` seeded points, reopening and checking after each (the crash area). */
export interface CrashStep {
  kind: 'crash';
  pos: SourcePos;
  workload: Workload;
  kills: number;
  /** The longest wait, in ms, between the writer being ready and the kill. */
  maxDelayMs: number;
  /**
   * `in-process: true`: no writer process; the runner writes, then drops the backend without closing it at each
   * seeded point and opens a fresh instance on the same storage (a simulated crash), so `durable` is checked on
   * backends that cannot run in a second process.
   */
  inProcess: boolean;
}

/**
 * One writer runs `count` items of the workload (from item `start`) under a system-call recorder; every crash state
 * its file operations allow is built and checked, at most `maxStates` of them (a seeded sample beyond).
 */
export interface CrashStatesStep {
  kind: 'crash-states';
  pos: SourcePos;
  workload: Workload;
  start: number;
  count: number;
  maxStates: number;
}

/** `writers` processes write `each` items at once, then nothing may be lost or doubled (the concurrency area). */
export interface ConcurrentStep {
  kind: 'concurrent';
  pos: SourcePos;
  workload: Workload;
  writers: number;
  each: number;
}

/**
 * `ours` worker processes and `cli` loops of the real sqlite3 (one process per INSERT, as the seed's subagents run it)
 * write `each` bindings into one state.db at once while `readers` sqlite3 loops query it; with `kills`, writers of
 * both sides are SIGKILLed that many times (the sqlite-mixed-writers area). Skipped where no sqlite3 is on PATH.
 */
export interface MixedWritersStep {
  kind: 'mixed-writers';
  pos: SourcePos;
  ours: number;
  cli: number;
  each: number;
  readers: number;
  kills: number;
}

/** How a scripted subagent departs from its instructions, to check the checker finds it (subagent-deviation.ts). */
export const DEVIATIONS = [
  'echo-value',
  'no-write',
  'wrong-execution-id',
  'no-summary',
  'mis-cased-key',
  'location-outside-run',
  'skip-segment',
  'reuse-segment',
  'no-execution-id',
  'no-memory-block',
  'decision-without-rationale',
  'ignore-large-output',
] as const;
export type Deviation = (typeof DEVIATIONS)[number];

/**
 * A scripted subagent (session.md): the runner builds the instructions a VM gives for this backend's storage, the
 * subagent follows them literally (writes the files, runs the commands), and the message it returns is checked
 * against the state. Template strings (`${f.executionId}`) are filled like op arguments.
 */
export interface SubagentStep {
  kind: 'subagent';
  pos: SourcePos;
  binding?: unknown;
  bindingKind?: unknown;
  executionId?: unknown;
  source?: unknown;
  agent?: unknown;
  scope?: 'execution' | 'project' | 'user';
  prompt?: unknown;
  value: unknown;
  summary: unknown;
  memory?: unknown;
  segmentSummary?: unknown;
  deviate?: Deviation;
  /**
   * The rule ids the checker must report, as a set (errors and warnings); empty: a clean message. A map by storage
   * kind where the same mistake legitimately reads differently (a path, a database row).
   */
  findings: string[] | Record<SubagentStorageKind, string[]>;
  /** Whether the storage must refuse what the (deviating) subagent writes: a database keeps a segment number unique. */
  refused: boolean | Record<SubagentStorageKind, boolean>;
  /** Saves `{ message, instructions, segment }` under this variable name. */
  save?: string;
}

export type Step =
  | OpStep
  | RestartStep
  | RepeatStep
  | LayoutStep
  | CrashStep
  | CrashStatesStep
  | ConcurrentStep
  | MixedWritersStep
  | SubagentStep
  | PlantStep;

export interface Case {
  id: string;
  area: string;
  title: string;
  /** The spec section the case checks. */
  spec: string;
  requires: Capability[];
  /** When true (the default) the runner creates a run first and saves it as `${run}`. */
  run: boolean;
  steps: Step[];
  pos: SourcePos;
}

export interface Suite {
  name: string;
  version: string;
  dir: string;
  cases: Case[];
}
