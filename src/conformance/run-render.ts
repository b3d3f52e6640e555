import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  isSubagentStorageKind,
  type Backend,
  type BackendEnv,
  type BackendFactory,
  type SubagentStorageKind,
} from '../core/backend.ts';
import { ProseError, toProseError } from '../core/errors.ts';
import { buildRenderInstructions, checkSubagentOutput, followRender, type RenderWork } from '../session/index.ts';
import type { Finding } from '../verify/finding.ts';
import { compareRules, type FindingsFilter } from './run-subagent.ts';
import { interpolate, type Vars } from './template.ts';

/** How a scripted render departs from its instructions (each a mistake the current texts rule out). */
export const RENDER_DEVIATIONS = [
  'commit-world-model',
  'world-model-files',
  'v0-reply',
  'mixed-reply',
  'session-form',
  'error-name-mismatch',
] as const;
export type RenderDeviation = (typeof RENDER_DEVIATIONS)[number];

/** What a render step asks (steps/render.ts reads it from the case). */
export interface RenderSpec {
  node: unknown;
  outputs: Record<string, unknown>;
  summary: unknown;
  errors?: unknown[];
  contract?: unknown;
  fail?: { error: unknown; details?: unknown };
  delegate?: { to: unknown; id: unknown; request: unknown; response: unknown };
  deviate?: RenderDeviation;
  /** The rule ids the checker must report on the (final) reply, as a set. */
  findings: string[];
}

export interface RenderContext {
  factory: BackendFactory;
  backend: Backend;
  env: BackendEnv;
  vars: Vars;
  checkerBug?: FindingsFilter;
}

export interface RenderResult {
  verdict: string | null;
  message: string;
  instructions: string;
  findings: Finding[];
  /** What the VM's commitWorldModel or failRender answered. */
  receipt?: unknown;
}

/** A render as the VM sees it: the run directory and the values the step gave. */
interface Render {
  v: RenderSpec;
  node: string;
  runDir: string;
  contract: string;
  c: RenderContext;
}

/**
 * One render of the current edition on directory storage (prose.md "4b. Spawn Session" to "4c. Receive
 * Confirmation"): the VM's prompt built, a scripted render following it literally (its workspace only), the reply
 * checked, then the VM's part: a delegate's response written and the render resumed, a failed receipt when
 * __error.md is there (failRender), else the workspace outputs committed (commitWorldModel).
 */
export async function runRender(step: RenderSpec, c: RenderContext): Promise<RenderResult> {
  const v = interpolate(step, c.vars) as RenderSpec;
  const node = String(v.node);
  const run = String(c.vars.run);
  const r: Render = {
    v,
    node,
    runDir: join(c.env.projectDir, String(c.vars.runDir)),
    contract: String(v.contract ?? `contract:${node}`),
    c,
  };
  const instructions = buildRenderInstructions({
    storage: storageOf(c.factory),
    projectDir: c.env.projectDir,
    runId: run,
    node,
    outputs: Object.keys(v.outputs),
    errors: (v.errors ?? (v.fail ? [v.fail.error] : [])).map(String),
    inputs: [],
    delegates: v.delegate ? [String(v.delegate.to)] : [],
  });
  const roleVerdict = v.deviate === 'commit-world-model' ? await renderCommits(r) : null;
  let message = followRender(instructions, work(v));
  if (v.delegate) {
    const d = v.delegate;
    const first = await check(r, message);
    const verdict = compareRules([], first);
    if (verdict) return { verdict: `the delegation request: ${verdict}`, message, instructions, findings: first };
    // The VM's part (prose.md "Runtime Delegation" 5): the response beside the request; then the render resumes.
    const response = join(r.runDir, 'workspace', node, '__delegate', String(d.to), `${String(d.id)}-response.md`);
    mkdirSync(dirname(response), { recursive: true });
    writeFileSync(response, String(d.response));
    message = followRender(instructions, work({ ...v, delegate: undefined }));
  }
  if (v.deviate === 'world-model-files') message = intoWorldModel(r, message);
  let receipt: unknown;
  if (v.deviate === 'session-form') {
    receipt = await vmPart(r);
    message = sessionForm(r, receipt);
  }
  message = deviateReply(v.deviate, message, node);
  const findings = await check(r, message);
  if (v.deviate !== 'session-form') receipt = await vmPart(r);
  const verdict = roleVerdict ?? compareRules(v.findings, findings);
  return { verdict, message, instructions, findings, ...(receipt !== undefined ? { receipt } : {}) };
}

/** The storage a render writes: the builder refuses the SQL kinds (the current texts define no render for them). */
function storageOf(f: BackendFactory): SubagentStorageKind {
  if (isSubagentStorageKind(f.kind)) return f.kind;
  throw new ProseError('E_CASE', `${f.name} keeps ${f.kind} storage, where no render writes a workspace`);
}

function work(v: RenderSpec): RenderWork {
  const outputs = Object.fromEntries(Object.entries(v.outputs).map(([k, x]) => [k, String(x)]));
  const base = { outputs, summary: String(v.summary) };
  if (v.delegate)
    return {
      ...base,
      delegate: { to: String(v.delegate.to), id: String(v.delegate.id), request: String(v.delegate.request) },
    };
  if (v.fail) return { ...base, error: { name: String(v.fail.error), description: String(v.fail.details ?? '') } };
  return base;
}

async function check(r: Render, message: string): Promise<Finding[]> {
  const checked = await checkSubagentOutput(message, r.runDir, {
    edition: 'current',
    storage: 'directory',
    projectDir: r.c.env.projectDir,
    expect: { node: r.node },
  });
  return r.c.checkerBug ? r.c.checkerBug(checked) : checked;
}

/** The render tries to commit its own world-model: the backend must answer E_ROLE (decision wm-single-writer). */
async function renderCommits(r: Render): Promise<string | null> {
  const files = Object.fromEntries(Object.entries(r.v.outputs).map(([k, x]) => [`${k}.md`, String(x)]));
  try {
    await r.c.backend.call(
      'commitWorldModel',
      { run: String(r.c.vars.run), node: r.node, files, contract: r.contract },
      { role: 'subagent', binding: r.node },
    );
  } catch (err) {
    const e = toProseError(err);
    return e.code === 'E_ROLE' ? null : `the render's commitWorldModel answered ${e.code}, not E_ROLE: ${e.message}`;
  }
  return 'the backend let the render commit its own world-model; only the VM commits (it must answer E_ROLE)';
}

/** prose.md "4c. Receive Confirmation": __error.md fails the render; else the workspace outputs are committed. */
async function vmPart(r: Render): Promise<unknown> {
  const ws = join(r.runDir, 'workspace', r.node);
  const run = String(r.c.vars.run);
  const vm = { role: 'vm' } as const;
  if (existsSync(join(ws, '__error.md'))) {
    const first = readFileSync(join(ws, '__error.md'), 'utf8').split('\n')[0] ?? '';
    const reason = /^# (?:Error|Render failed): (\S+)/.exec(first)?.[1];
    if (reason === undefined) throw new ProseError('E_STATE', `workspace/${r.node}/__error.md has no error name`);
    return r.c.backend.call('failRender', { run, node: r.node, contract: r.contract, reason }, vm);
  }
  const files: Record<string, string> = {};
  for (const name of Object.keys(r.v.outputs)) {
    const p = join(ws, `${name}.md`);
    if (existsSync(p)) files[`${name}.md`] = readFileSync(p, 'utf8');
  }
  return r.c.backend.call('commitWorldModel', { run, node: r.node, files, contract: r.contract }, vm);
}

/** The render puts its outputs in world-model/{node}/ itself and says so. */
function intoWorldModel(r: Render, message: string): string {
  return message.replace(/^(\s+- [^:]+: )workspace\/([^/]+)\/(\S+)$/gm, (_, lead: string, node: string, f: string) => {
    const p = join(r.runDir, 'world-model', node, f);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, readFileSync(join(r.runDir, 'workspace', node, f)));
    return `${lead}world-model/${node}/${f}`;
  });
}

/** session.md 4.2's wording, with the World-model: and Receipt: of what the VM just committed. */
function sessionForm(r: Render, receipt: unknown): string {
  const version = readFileSync(join(r.runDir, 'world-model', r.node, '.version'), 'utf8').trim();
  const status = (receipt as { status: string }).status;
  return [
    `Render committed: ${r.node}`,
    `World-model: world-model/${r.node}/ (${version})`,
    `Receipt: ${status}`,
    'Fingerprints moved: { @atomic }',
    `Summary: ${String(r.v.summary)}`,
    '',
  ].join('\n');
}

function deviateReply(d: RenderDeviation | undefined, message: string, node: string): string {
  if (d === 'v0-reply')
    return `Binding written: ${node}\nLocation: bindings/${node}.md\nSummary: ${message.match(/^Summary: (.*)$/m)?.[1] ?? ''}\n`;
  if (d === 'mixed-reply') return message.replace(/^(Render (?:complete|error): .*)$/m, '$1\nReceipt: rendered');
  if (d === 'error-name-mismatch') return message.replace(/^Error: (.*)$/m, 'Error: $1-other');
  return message;
}
