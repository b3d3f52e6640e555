import type { YAMLMap } from 'yaml';
import type { Node } from 'yaml';
import { RENDER_RULES } from '../../session/index.ts';
import type { SourcePos } from '../source-pos.ts';
import { caseError, checkKeys, toJs } from '../case-yaml.ts';
import { RENDER_DEVIATIONS, runRender, type RenderSpec } from '../run-render.ts';
import { withTimeout } from '../with-timeout.ts';
import { settleSession } from './checked-session.ts';
import { type StepKind, type StepRun, type StepSite } from './step-kind.ts';

/**
 * A scripted render of the current edition (prose.md "4b. Spawn Session"): the runner builds the VM's prompt, the
 * render follows it literally in its workspace, the reply is checked (`findings`: the render.* rule ids expected),
 * then the VM fails the render on __error.md (failRender) or commits the workspace outputs (commitWorldModel).
 */
export interface RenderStep extends RenderSpec {
  kind: 'render';
  pos: SourcePos;
  /** Saves `{ message, instructions, receipt }` under this variable name. */
  save?: string;
}

const FIELDS = new Set(['node', 'outputs', 'summary', 'errors', 'contract', 'fail', 'delegate', 'deviate']);

export const renderStep: StepKind<RenderStep> = {
  kind: 'render',
  key: 'render',
  load: loadRender,
  run: runRenderStep,
  explain: (s) =>
    `render: a scripted render of node ${String(s.node)} writes its workspace and replies (current edition)`,
  implies: () => ['world-model', 'layout:directory'],
  workers: 'untimed',
};

async function runRenderStep(step: RenderStep, { ctx, env, vars, state }: StepRun): Promise<void> {
  const render = runRender(step, {
    factory: ctx.factory,
    backend: state.backend!,
    env,
    vars,
    ...(ctx.checkerBug ? { checkerBug: ctx.checkerBug } : {}),
  });
  const r = await withTimeout(render, ctx.stepTimeoutMs * 2, 'render session');
  settleSession(step, 'render', r, state.metrics, 'renders checked');
  if (step.save) vars[step.save] = { message: r.message, instructions: r.instructions, receipt: r.receipt };
}

function loadRender(node: YAMLMap, { p, field, pos }: StepSite): RenderStep {
  checkKeys(p, node, new Set(['render', 'findings', 'save']), field);
  const err = (msg: string, f: string) => caseError(p.file, pos.line, msg, `${field}.${f}`);
  const body = toJs(p, node.get('render', true) as Node) as Record<string, unknown> | null;
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw err('"render" is a mapping (node, outputs, summary, ...)', 'render');
  for (const k of Object.keys(body))
    if (!FIELDS.has(k)) throw err(`unknown field "${k}"; allowed: ${[...FIELDS].join(', ')}`, `render.${k}`);
  for (const k of ['node', 'outputs', 'summary'])
    if (body[k] === undefined) throw err(`"${k}" is required`, `render.${k}`);
  if (typeof body.outputs !== 'object' || body.outputs === null || Array.isArray(body.outputs))
    throw err('outputs is a mapping of output name to its text', 'render.outputs');
  if (body.deviate !== undefined && !RENDER_DEVIATIONS.includes(body.deviate as never))
    throw err(`deviate is one of ${RENDER_DEVIATIONS.join(', ')}`, 'render.deviate');
  const findings = toJs(p, node.get('findings', true) as Node) ?? [];
  if (!Array.isArray(findings) || !findings.every((r) => typeof r === 'string' && r in RENDER_RULES))
    throw err('findings is a list of render.* rule ids (docs/session-protocol.md lists them)', 'findings');
  const save = node.get('save');
  if (save !== undefined && typeof save !== 'string') throw err('"save" must be a variable name', 'save');
  return {
    kind: 'render',
    pos,
    ...(body as unknown as RenderSpec),
    findings: findings as string[],
    ...(save !== undefined ? { save: save as string } : {}),
  };
}
