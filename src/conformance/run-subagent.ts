import { join } from 'node:path';
import {
  isSubagentStorageKind,
  type Backend,
  type BackendEnv,
  type BackendFactory,
  type SubagentStorageKind,
} from '../core/backend.ts';
import { ProseError } from '../core/errors.ts';
import type { BindingKind } from '../core/model.ts';
import { runsDir } from '../core/seed-layout.ts';
import {
  buildInstructions,
  checkSubagentOutput,
  followInstructions,
  prepareAgentDb,
  returnMessage,
  sqliteProgram,
  type RunTarget,
  type SessionBackend,
  type SubagentWork,
} from '../session/index.ts';
import type { Finding } from '../verify/finding.ts';
import type { SubagentStep } from './steps/subagent.ts';
import { deviateMessage, segmentOffset } from './subagent-deviation.ts';
import { interpolate, type Vars } from './template.ts';

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

/** How SQLite ("UNIQUE constraint failed") and PostgreSQL ("duplicate key value violates unique constraint") refuse. */
const UNIQUE_REFUSAL = /UNIQUE constraint failed|duplicate key value violates unique constraint/i;

/** The session layer names the storage after the backend that writes it (`--backend filesystem` of `instructions`). */
const SESSION_BACKENDS: Record<SubagentStorageKind, SessionBackend> = {
  directory: 'filesystem',
  sqlite: 'sqlite',
  postgres: 'postgres',
};

/**
 * One session of a scripted subagent: the VM's instructions for this storage, followed literally, then the
 * returned message checked against what is stored. The step fails when the checker's rule ids differ from the
 * case's `findings` (as sets).
 */
export async function runSubagent(step: SubagentStep, c: SubagentContext): Promise<SubagentResult> {
  const storage = c.factory.kind;
  if (!isSubagentStorageKind(storage))
    throw new ProseError(
      'E_CASE',
      `${c.factory.name} declares subagent-writes, but session.md has no instructions for storage kind "${c.factory.kind}"`,
    );
  const backendKind = SESSION_BACKENDS[storage];
  const v = interpolate(step, c.vars) as SubagentStep;
  const run = String(c.vars.run);
  const target: RunTarget = {
    runDir: join(runsDir(c.env.projectDir), run),
    projectDir: c.env.projectDir,
    homeDir: c.env.homeDir,
    runRef: run,
    runId: String(c.vars.runId ?? run.split('/')[0]),
    backend: backendKind,
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
  let segment: number | undefined;
  let agent;
  if (v.agent !== undefined) {
    const scope = v.scope ?? 'execution';
    // The VM hands out one past the newest segment the backend lists (read back, so subagent writes must be seen).
    const listed = await c.backend.call(
      'listSegments',
      { agent: String(v.agent), scope, ...(scope === 'execution' ? { run } : {}) },
      { role: 'vm' },
    );
    segment = Math.max(0, ...listed.segments.map((s) => s.number)) + 1;
    agent = {
      name: String(v.agent),
      scope,
      segment: segment + segmentOffset(v.deviate),
      prompt: String(v.prompt ?? 'Continue the review'),
    };
    if (backendKind === 'sqlite') await prepareAgentDb(target, scope);
  }
  const sqlite3 = sqliteProgram('auto', process.env);
  const instructions = buildInstructions({
    backend: backendKind,
    target,
    ...(binding ? { binding } : {}),
    ...(agent ? { agent } : {}),
    sqlite3,
    segmentWidth: c.env.decisions.segmentWidth,
    attachmentThresholdBytes: c.env.decisions.attachmentThresholdBytes,
  });
  const view = c.backend.storage?.();
  const pgRun = view?.kind === 'postgres' ? view.subagentScript?.bind(view) : undefined;
  if (backendKind === 'postgres' && !pgRun)
    throw new ProseError(
      'E_CASE',
      `${c.factory.name} gives no connection a subagent could write with (StorageView.subagentScript)`,
    );
  if (sqlite3 !== 'sqlite3' && backendKind === 'sqlite' && !c.self)
    throw new ProseError('E_CASE', 'sqlite3 is not on PATH and no prose-state command is known for the shim');
  const work: SubagentWork = {
    value: String(v.value),
    summary: String(v.summary),
    ...(v.memory !== undefined ? { memory: String(v.memory) } : {}),
    ...(v.segmentSummary !== undefined ? { segmentSummary: String(v.segmentSummary) } : {}),
    ...(v.deviate === 'ignore-large-output' ? { ignoreLargeOutput: true } : {}),
  };
  const mustRefuse = typeof step.refused === 'boolean' ? step.refused : step.refused[storage];
  let message: string;
  if (v.deviate === 'no-write') message = returnMessage(instructions, work);
  else {
    try {
      message = await followInstructions(instructions, work, {
        backend: backendKind,
        projectDir: c.env.projectDir,
        homeDir: c.env.homeDir,
        ...(c.self ? { self: c.self } : {}),
        ...(pgRun ? { pgRun } : {}),
        timeoutMs: c.timeoutMs,
      });
      if (mustRefuse)
        return {
          verdict: 'the storage accepted the deviating write; it must refuse it',
          message: '',
          instructions,
          findings: [],
        };
    } catch (err) {
      // Only a refusal to store a duplicate counts: any other failure (no sqlite3, a syntax error) is the step's.
      if (!mustRefuse || !UNIQUE_REFUSAL.test(err instanceof Error ? err.message : String(err))) throw err;
      // A subagent whose write was refused still returns its confirmation; the checker must catch the mismatch.
      message = returnMessage(instructions, work);
    }
  }
  const returned = deviateMessage(v.deviate, message, work.value);
  const checked = await checkSubagentOutput(returned, backendKind === 'postgres' ? target.runId : target.runDir, {
    projectDir: c.env.projectDir,
    homeDir: c.env.homeDir,
    backend: backendKind,
    attachmentThresholdBytes: c.env.decisions.attachmentThresholdBytes,
    ...(view?.kind === 'postgres' ? { pgQuery: view.query.bind(view) } : {}),
    expect: {
      ...(binding ? { binding: binding.name, executionId, kind: binding.kind } : {}),
      ...(agent ? { agent: agent.name, segment } : {}),
    },
  });
  const findings = c.checkerBug ? c.checkerBug(checked) : checked;
  const expected = Array.isArray(step.findings) ? step.findings : step.findings[storage];
  return {
    verdict: compareRules(expected, findings),
    message: returned,
    instructions,
    ...(segment !== undefined ? { segment } : {}),
    findings,
  };
}

function compareRules(expected: readonly string[], seen: readonly Finding[]): string | null {
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
