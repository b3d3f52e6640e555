import type { Node, YAMLMap } from 'yaml';
import { SUBAGENT_STORAGE_KINDS } from '../../core/backend.ts';
import type { ProseError } from '../../core/errors.ts';
import { SESSION_RULES } from '../../session/session-rules.ts';
import type { SourcePos } from '../source-pos.ts';
import { caseError, checkKeys, toJs, type Parsed } from '../case-yaml.ts';
import { runSubagent, type SubagentSpec } from '../run-subagent.ts';
import { DEVIATIONS } from '../subagent-deviation.ts';
import { withTimeout } from '../with-timeout.ts';
import { settleSession } from './checked-session.ts';
import { type StepKind, type StepRun, type StepSite } from './step-kind.ts';

/**
 * A scripted subagent (session.md): the runner builds the instructions a VM gives for this backend's storage, the
 * subagent follows them literally (writes the files, runs the commands), and the message it returns is checked
 * against the state. Template strings (`${f.executionId}`) are filled like op arguments.
 */
export interface SubagentStep extends SubagentSpec {
  kind: 'subagent';
  pos: SourcePos;
  /** Saves `{ message, instructions, segment }` under this variable name. */
  save?: string;
}

const SUBAGENT_FIELDS = new Set([
  'binding',
  'kind',
  'executionId',
  'source',
  'agent',
  'scope',
  'prompt',
  'value',
  'summary',
  'memory',
  'segmentSummary',
  'deviate',
]);

type FieldError = (msg: string, f: string) => ProseError;

export const subagentStep: StepKind<SubagentStep> = {
  kind: 'subagent',
  key: 'subagent',
  load: loadSubagent,
  run: runSubagentStep,
  explain: () => 'subagent: a scripted subagent writes into the storage as session.md instructs (no message)',
  implies: () => ['subagent-writes'],
  workers: 'untimed',
};

async function runSubagentStep(step: SubagentStep, { ctx, env, vars, state }: StepRun): Promise<void> {
  const session = runSubagent(step, {
    factory: ctx.factory,
    backend: state.backend!,
    env,
    vars,
    ...(ctx.workerCommand ? { self: ctx.workerCommand } : {}),
    ...(ctx.checkerBug ? { checkerBug: ctx.checkerBug } : {}),
    timeoutMs: ctx.stepTimeoutMs,
  });
  const r = await withTimeout(session, ctx.stepTimeoutMs * 2, 'subagent session');
  settleSession(step, 'subagent', r, state.metrics, 'subagent sessions checked');
  if (step.save) vars[step.save] = { message: r.message, instructions: r.instructions, segment: r.segment };
}

function loadSubagent(node: YAMLMap, { p, field, pos }: StepSite): SubagentStep {
  checkKeys(p, node, new Set(['subagent', 'findings', 'refused', 'save']), field);
  const body = toJs(p, node.get('subagent', true) as Node) as Record<string, unknown> | null;
  const err: FieldError = (msg, f) => caseError(p.file, pos.line, msg, `${field}.${f}`);
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw err('"subagent" is a mapping (binding, value, summary, ...)', 'subagent');
  checkBody(body, err);
  const save = node.get('save');
  if (save !== undefined && typeof save !== 'string') throw err('"save" must be a variable name', 'save');
  const { kind, ...rest } = body;
  const refused = loadRefused(p, node.get('refused', true) as Node | undefined, err);
  if (refused !== false && body.deviate === undefined)
    throw err('only a deviating subagent (deviate:) can expect its write refused', 'refused');
  return {
    kind: 'subagent',
    pos,
    ...rest,
    ...(kind !== undefined ? { bindingKind: kind } : {}),
    refused,
    findings: loadFindings(p, node.get('findings', true) as Node | undefined, err),
    ...(save !== undefined ? { save: save as string } : {}),
  } as SubagentStep;
}

function checkBody(body: Record<string, unknown>, err: FieldError): void {
  for (const k of Object.keys(body))
    if (!SUBAGENT_FIELDS.has(k))
      throw err(`unknown field "${k}"; allowed: ${[...SUBAGENT_FIELDS].join(', ')}`, `subagent.${k}`);
  if (body.binding === undefined && body.agent === undefined)
    throw err("a subagent writes a binding, an agent's memory, or both", 'subagent');
  for (const k of ['value', 'summary'])
    if (body[k] === undefined) throw err(`"${k}" is required (what the subagent produces)`, `subagent.${k}`);
  if (body.scope !== undefined && !['execution', 'project', 'user'].includes(body.scope as string))
    throw err('scope is execution, project or user', 'subagent.scope');
  if (body.deviate !== undefined && !DEVIATIONS.includes(body.deviate as never))
    throw err(`deviate is one of ${DEVIATIONS.join(', ')}`, 'subagent.deviate');
}

function loadRefused(p: Parsed, node: Node | undefined, err: FieldError): SubagentStep['refused'] {
  const js = node === undefined ? false : toJs(p, node);
  if (typeof js === 'boolean') return js;
  const map = js as Record<string, unknown>;
  if (
    !map ||
    typeof map !== 'object' ||
    Array.isArray(map) ||
    !SUBAGENT_STORAGE_KINDS.every((k) => typeof map[k] === 'boolean') ||
    Object.keys(map).length !== SUBAGENT_STORAGE_KINDS.length
  ) {
    throw err('refused is true, false, or a map of them by storage (directory, sqlite, postgres)', 'refused');
  }
  return map as SubagentStep['refused'];
}

function loadFindings(p: Parsed, node: Node | undefined, err: FieldError): SubagentStep['findings'] {
  const js = node === undefined ? [] : toJs(p, node);
  const list = (v: unknown, f: string): string[] => {
    if (!Array.isArray(v))
      throw err('findings is a list of rule ids (or a map of such lists by storage: directory, sqlite, postgres)', f);
    for (const r of v)
      if (!(typeof r === 'string' && r in SESSION_RULES))
        throw err(`unknown rule ${JSON.stringify(r)} (docs/session-protocol.md lists them)`, f);
    return v as string[];
  };
  if (Array.isArray(js)) return list(js, 'findings');
  if (!js || typeof js !== 'object') return list(js, 'findings');
  const map = js as Record<string, unknown>;
  for (const k of Object.keys(map))
    if (!SUBAGENT_STORAGE_KINDS.includes(k as never))
      throw err(`findings by storage: unknown kind "${k}"`, `findings.${k}`);
  return Object.fromEntries(
    SUBAGENT_STORAGE_KINDS.map((k) => [k, list(map[k], `findings.${k}`)]),
  ) as SubagentStep['findings'];
}
