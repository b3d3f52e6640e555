import { join, relative, sep } from 'node:path';
import type { BindingKind } from '../core/model.ts';
import { agentDir as agentDirOf, type FixedAgentScope } from '../core/seed-layout.ts';
import { agentDbOf } from './edition-paths.ts';
import type { RunTarget } from './run-target.ts';
import type { SubagentStorageKind } from '../core/backend.ts';
import { sqlLit } from './shell-quote.ts';

export interface InstructionRequest {
  storage: SubagentStorageKind;
  target: RunTarget;
  binding?: InstructionBinding;
  agent?: InstructionAgent;
  /** `sqlite3`, or `prose-state sqlite3` on a machine without it. */
  sqlite3: string;
  segmentWidth?: number;
  timeoutMs?: number;
  /** Above this many UTF-8 bytes an output is a large output (sqlite.md "Large Outputs"; decision attachment-threshold). */
  attachmentThresholdBytes?: number;
}
export interface InstructionBinding {
  name: string;
  kind: BindingKind;
  executionId: number | null;
  source: string;
}
export interface InstructionAgent {
  name: string;
  scope: 'execution' | 'project' | 'user';
  segment: number;
  prompt: string;
}

/** A path as the subagent reads it: relative to the project, else under ~/ , else absolute; always with slashes. */
export function rel(r: InstructionRequest, abs: string): string {
  const x = relative(r.target.projectDir, abs);
  if (x.startsWith('..')) {
    const h = relative(r.target.homeDir, abs);
    return h.startsWith('..') ? abs : `~/${h.split(sep).join('/')}`;
  }
  return x.split(sep).join('/');
}

const bindingFile = (b: { name: string; executionId: number | null }) =>
  b.executionId === null ? `${b.name}.md` : `${b.name}__${b.executionId}.md`;
export const runDb = (r: InstructionRequest) => rel(r, join(r.target.runDir, 'state.db'));

/** `attachments/{name}.md` at root, `attachments/{name}__{execution_id}.md` in a frame, relative to the run (decision attachment-naming). */
export const attachmentRel = (b: { name: string; executionId: number | null }) => `attachments/${bindingFile(b)}`;

export function bindingLocation(r: InstructionRequest, b: { name: string; executionId: number | null }): string {
  if (r.storage === 'directory') return rel(r, join(r.target.runDir, 'bindings', bindingFile(b)));
  if (r.storage === 'sqlite')
    return `${runDb(r)} (bindings table, name=${sqlLit(b.name)}, execution_id=${b.executionId ?? 'NULL'})`;
  // The current postgres.md writes the root scope out (`AND execution_id IS NULL`); our v0 form leaves it off.
  const root = r.target.edition === 'current' ? ' AND execution_id IS NULL' : '';
  const execution = b.executionId === null ? root : ` AND execution_id=${b.executionId}`;
  return `openprose.bindings WHERE name=${sqlLit(b.name)} AND run_id=${sqlLit(r.target.runId)}${execution}`;
}

export function agentDir(r: InstructionRequest, a: { name: string; scope: FixedAgentScope }): string {
  return agentDirOf(r.target, a.scope, a.name);
}

export function agentDb(r: InstructionRequest, scope: FixedAgentScope): string {
  return rel(r, agentDbOf(r.target, scope));
}

export function memoryLocation(r: InstructionRequest, a: { name: string; scope: FixedAgentScope }): string {
  if (r.storage === 'directory') return rel(r, join(agentDir(r, a), 'memory.md'));
  if (r.storage === 'sqlite') return `${agentDb(r, a.scope)} (agents table, name=${sqlLit(a.name)})`;
  const run = a.scope === 'execution' ? ` AND run_id=${sqlLit(r.target.runId)}` : '';
  return `openprose.agents WHERE name=${sqlLit(a.name)} AND scope=${sqlLit(a.scope)}${run}`;
}
