import {
  isSubagentStorageKind,
  type Backend,
  type BackendEnv,
  type BackendFactory,
  type StorageView,
  type SubagentStorageKind,
} from '../core/backend.ts';
import { DEFAULT_EDITION } from '../core/editions.ts';
import { ProseError } from '../core/errors.ts';
import type { BindingKind } from '../core/model.ts';
import { editionRunDir } from '../core/seed-layout.ts';
import {
  buildInstructions,
  checkSubagentOutput,
  followInstructions,
  prepareAgentDb,
  returnMessage,
  sqliteProgram,
  type RunTarget,
  type SubagentWork,
} from '../session/index.ts';
import type { Finding } from '../verify/finding.ts';
import { deviateInstructions, deviateMessage, refusalOf, segmentOffset, type Deviation } from './subagent-deviation.ts';
import { interpolate, type Vars } from './template.ts';

/** What a subagent step asks of the session (steps/subagent.ts reads it from the case). */
export interface SubagentSpec {
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
}

/** Stands in for a broken session checker (selftest): rewrites the findings of each subagent step. */
export type FindingsFilter = (findings: Finding[]) => Finding[];

export interface SubagentContext {
  factory: BackendFactory;
  backend: Backend;
  env: BackendEnv;
  vars: Vars;
  /** argv that starts this CLI: the instructions say `prose-state sqlite3` where sqlite3 is not installed. */
  self?: readonly string[];
  timeoutMs: number;
  /** selftest only: a broken checker, applied to the findings before they are compared. */
  checkerBug?: FindingsFilter;
}

/** What the step saw: the verdict is null when the checker reported exactly the expected rules. */
export interface SubagentResult {
  verdict: string | null;
  message: string;
  instructions: string;
  segment?: number;
  findings: Finding[];
}

/** A session made ready: the VM's instructions for this storage, and what the subagent is to produce. */
interface Session {
  storage: SubagentStorageKind;
  target: RunTarget;
  instructions: string;
  work: SubagentWork;
  binding?: { name: string; kind: BindingKind; executionId: number | null; source: string };
  agent?: { name: string; scope: 'execution' | 'project' | 'user'; segment: number; prompt: string };
  /** The segment number the VM handed out (before any deviation). */
  segment?: number;
  view: StorageView | undefined;
  pgRun?: (script: string) => Promise<void>;
}

/**
 * One session of a scripted subagent: the VM's instructions for this storage, followed literally, then the
 * returned message checked against what is stored. The step fails when the checker's rule ids differ from the
 * case's `findings` (as sets).
 */
export async function runSubagent(step: SubagentSpec, c: SubagentContext): Promise<SubagentResult> {
  const v = interpolate(step, c.vars) as SubagentSpec;
  const s = await prepareSession(v, c);
  const mustRefuse = typeof step.refused === 'boolean' ? step.refused : step.refused[s.storage];
  const message =
    v.deviate === 'no-write' ? returnMessage(s.instructions, s.work) : await writeAs(s, c, mustRefuse, v.deviate);
  if (message === undefined)
    return {
      verdict: 'the storage accepted the deviating write; it must refuse it',
      message: '',
      instructions: s.instructions,
      findings: [],
    };
  const returned = deviateMessage(v.deviate, message, s.work.value);
  const checked = await checkSubagentOutput(returned, s.storage === 'postgres' ? s.target.runId : s.target.runDir, {
    edition: s.target.edition ?? DEFAULT_EDITION,
    projectDir: c.env.projectDir,
    homeDir: c.env.homeDir,
    storage: s.storage,
    attachmentThresholdBytes: c.env.decisions.attachmentThresholdBytes,
    ...(s.view?.kind === 'postgres' ? { pgQuery: s.view.query.bind(s.view) } : {}),
    expect: {
      ...(s.binding ? { binding: s.binding.name, executionId: s.binding.executionId, kind: s.binding.kind } : {}),
      ...(s.agent ? { agent: s.agent.name, segment: s.segment } : {}),
    },
  });
  const findings = c.checkerBug ? c.checkerBug(checked) : checked;
  const expected = Array.isArray(step.findings) ? step.findings : step.findings[s.storage];
  return {
    verdict: compareRules(expected, findings),
    message: returned,
    instructions: s.instructions,
    ...(s.segment !== undefined ? { segment: s.segment } : {}),
    findings,
  };
}

async function prepareSession(v: SubagentSpec, c: SubagentContext): Promise<Session> {
  const storage = c.factory.kind;
  if (!isSubagentStorageKind(storage))
    throw new ProseError(
      'E_CASE',
      `${c.factory.name} declares subagent-writes, but session.md has no instructions for storage kind "${c.factory.kind}"`,
    );
  const run = String(c.vars.run);
  const edition = c.env.edition ?? DEFAULT_EDITION;
  // The current filesystem.md gives a render (render-protocol.yaml), not this confirmation (current-sql-subagent).
  if (edition !== DEFAULT_EDITION && storage === 'directory')
    throw new ProseError('E_CASE', `the ${edition} edition has no binding confirmation for directory storage`, {
      hint: 'a render: step checks what the current filesystem.md has a subagent do',
    });
  const target: RunTarget = {
    runDir: editionRunDir(c.env.projectDir, run, edition),
    projectDir: c.env.projectDir,
    homeDir: c.env.homeDir,
    runRef: run,
    runId: String(c.vars.runId ?? run.split('/')[0]),
    storage,
    ...(edition !== DEFAULT_EDITION ? { edition } : {}),
  };
  const executionId = v.executionId === undefined || v.executionId === null ? null : Number(v.executionId);
  const binding =
    v.binding === undefined
      ? undefined
      : {
          name: String(v.binding),
          kind: (v.bindingKind ?? 'let') as BindingKind,
          executionId,
          source: String(v.source ?? `let ${String(v.binding)} = session "conformance"`),
        };
  const { segment, agent } = v.agent === undefined ? {} : await nextSegment(v, c, target, run);
  const sqlite3 = sqliteProgram('auto', process.env);
  const instructions = buildInstructions({
    storage,
    target,
    ...(binding ? { binding } : {}),
    ...(agent ? { agent } : {}),
    sqlite3,
    segmentWidth: c.env.decisions.segmentWidth,
    attachmentThresholdBytes: c.env.decisions.attachmentThresholdBytes,
  });
  const view = c.backend.storage?.();
  const pgRun = view?.kind === 'postgres' ? view.subagentScript?.bind(view) : undefined;
  if (storage === 'postgres' && !pgRun)
    throw new ProseError(
      'E_CASE',
      `${c.factory.name} gives no connection a subagent could write with (StorageView.subagentScript)`,
    );
  if (sqlite3 !== 'sqlite3' && storage === 'sqlite' && !c.self)
    throw new ProseError('E_CASE', 'sqlite3 is not on PATH and no prose-state command is known for the shim');
  const work: SubagentWork = {
    value: String(v.value),
    summary: String(v.summary),
    ...(v.memory !== undefined ? { memory: String(v.memory) } : {}),
    ...(v.segmentSummary !== undefined ? { segmentSummary: String(v.segmentSummary) } : {}),
    ...(v.deviate === 'ignore-large-output' ? { ignoreLargeOutput: true } : {}),
  };
  const session = { storage, target, instructions, work, view, ...(pgRun ? { pgRun } : {}) };
  return { ...session, ...(binding ? { binding } : {}), ...(agent ? { agent, segment } : {}) };
}

/** The agent's next segment: the VM hands out one past the newest the backend lists (so subagent writes must be seen). */
async function nextSegment(v: SubagentSpec, c: SubagentContext, target: RunTarget, run: string) {
  const scope = v.scope ?? 'execution';
  const listed = await c.backend.call(
    'listSegments',
    { agent: String(v.agent), scope, ...(scope === 'execution' ? { run } : {}) },
    { role: 'vm' },
  );
  const segment = Math.max(0, ...listed.segments.map((s) => s.number)) + 1;
  const agent = {
    name: String(v.agent),
    scope,
    segment: segment + segmentOffset(v.deviate),
    prompt: String(v.prompt ?? 'Continue the review'),
  };
  if (target.storage === 'sqlite') await prepareAgentDb(target, scope);
  return { segment, agent };
}

/** The subagent writes as instructed and returns its message; undefined when a write that must be refused was taken. */
async function writeAs(
  s: Session,
  c: SubagentContext,
  mustRefuse: boolean,
  deviate: Deviation | undefined,
): Promise<string | undefined> {
  try {
    const message = await followInstructions(deviateInstructions(deviate, s.instructions), s.work, {
      storage: s.storage,
      projectDir: c.env.projectDir,
      homeDir: c.env.homeDir,
      ...(c.self ? { self: c.self } : {}),
      ...(s.pgRun ? { pgRun: s.pgRun } : {}),
      timeoutMs: c.timeoutMs,
    });
    return mustRefuse ? undefined : message;
  } catch (err) {
    // Only the refusal the deviation provokes counts: any other failure (no sqlite3, a syntax error) is the step's.
    if (!mustRefuse || !refusalOf(deviate).test(err instanceof Error ? err.message : String(err))) throw err;
    // A subagent whose write was refused still returns its confirmation; the checker must catch the mismatch.
    return returnMessage(s.instructions, s.work);
  }
}

/** The checker's rule ids against the expected ones, as sets: null when they agree, else what differs. */
export function compareRules(expected: readonly string[], seen: readonly Finding[]): string | null {
  const want = new Set(expected);
  const got = new Set(seen.map((f) => f.rule));
  const missing = [...want].filter((r) => !got.has(r));
  const extra = seen.filter((f) => !want.has(f.rule));
  if (!missing.length && !extra.length) return null;
  const parts: string[] = [];
  if (missing.length) parts.push(`the checker did not report ${missing.join(', ')}`);
  if (extra.length)
    parts.push(
      `it reported ${extra.map((f) => `${f.rule} (${f.message}${f.line !== undefined ? `, line ${f.line}` : ''})`).join('; ')}`,
    );
  return parts.join('; ');
}
