import type { YAMLMap } from 'yaml';
import { defaultActor, type Actor } from '../../core/actor.ts';
import type { Backend } from '../../core/backend.ts';
import { isErrorCode, ProseError, serializeError, toProseError, type ErrorCode } from '../../core/errors.ts';
import { isOpName, OPS, type OpArgs, type OpName } from '../../core/ops.ts';
import type { SourcePos } from '../source-pos.ts';
import { caseError, checkKeys, toJs } from '../case-yaml.ts';
import { match, show } from '../match.ts';
import { ERRORED_CODES } from '../outcome.ts';
import { interpolate, type Vars } from '../template.ts';
import { withTimeout } from '../with-timeout.ts';
import { evidenceOf, StepFailure, type StepKind, type StepSite } from './step-kind.ts';

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

const OP_KEYS = new Set(['op', 'args', 'as', 'expect', 'error', 'message', 'save']);

/** One call of an operation and what it must answer: the step every mapping without another kind's key is. */
export const opStep: StepKind<OpStep> = {
  kind: 'op',
  key: 'op',
  load: loadOp,
  async run(step, { ctx, vars, state }) {
    await runOp(step, vars, ctx.stepTimeoutMs, state.backend!);
    // Each expected refusal that held is one bad input tried (the hostile-input area's count).
    if (step.error) state.metrics['bad inputs refused'] = (state.metrics['bad inputs refused'] ?? 0) + 1;
  },
  explain(step, show) {
    const wants = step.error
      ? `expects error ${step.error}${step.message ? ` with a message matching /${step.message}/` : ''}`
      : step.expect !== undefined
        ? `expects a result containing ${show(step.expect)}`
        : 'expects success';
    return `${step.op}, ${wants}${step.actor !== undefined ? ` (as ${show(step.actor)})` : ''}`;
  },
};

function loadOp(node: YAMLMap, { p, field, pos }: StepSite): OpStep {
  const line = pos.line;
  checkKeys(p, node, OP_KEYS, field);
  const js = toJs(p, node) as Record<string, unknown>;
  if (!isOpName(js.op))
    throw caseError(
      p.file,
      line,
      `unknown op ${JSON.stringify(js.op)}; known: ${Object.keys(OPS).join(', ')}`,
      `${field}.op`,
    );
  const args = (js.args ?? {}) as Record<string, unknown>;
  if (typeof args !== 'object' || Array.isArray(args))
    throw caseError(p.file, line, '"args" must be a mapping', `${field}.args`);
  for (const key of Object.keys(args)) {
    if (!(key in OPS[js.op].args))
      throw caseError(p.file, line, `${js.op} has no argument "${key}"`, `${field}.args.${key}`);
  }
  if (js.error !== undefined && !isErrorCode(js.error))
    throw caseError(p.file, line, `unknown error code ${JSON.stringify(js.error)}`, `${field}.error`);
  if (js.error !== undefined && js.expect !== undefined)
    throw caseError(p.file, line, 'a step expects a result or an error, not both', field);
  if (js.message !== undefined && (typeof js.message !== 'string' || js.error === undefined))
    throw caseError(p.file, line, '"message" is a regular expression and goes with "error"', `${field}.message`);
  if (js.save !== undefined && typeof js.save !== 'string')
    throw caseError(p.file, line, '"save" must be a variable name', `${field}.save`);
  return {
    kind: 'op',
    pos,
    op: js.op,
    args,
    ...(js.as !== undefined ? { actor: js.as as never } : {}),
    ...(js.expect !== undefined ? { expect: js.expect } : {}),
    ...(js.error !== undefined ? { error: js.error as never } : {}),
    ...(js.save !== undefined ? { save: js.save as string } : {}),
    ...(js.message !== undefined ? { message: js.message as string } : {}),
  };
}

async function runOp(step: OpStep, vars: Vars, timeoutMs: number, backend: Backend): Promise<void> {
  const args = interpolate(step.args, vars) as Record<string, unknown>;
  const spec = OPS[step.op].args;
  // Most cases work on the run the runner created; agent calls need it only in execution scope.
  if (
    'run' in spec &&
    args.run === undefined &&
    vars.run !== undefined &&
    (!('scope' in spec) || args.scope === 'execution')
  )
    args.run = vars.run;
  const actor = toActor(step, args, vars);
  const label = `${step.op} ${show(args).slice(0, 120)}`;
  let result: unknown;
  try {
    result = await withTimeout(backend.call(step.op, args as OpArgs[OpName], actor), timeoutMs, label);
  } catch (err) {
    judgeError(step, label, err);
    return;
  }
  if (step.error) {
    throw new StepFailure({
      status: 'failed',
      at: step.pos,
      step: label,
      message: `expected error ${step.error}, but the call succeeded with ${show(result)}`,
      expected: step.error,
      seen: result,
    });
  }
  if (step.expect !== undefined) {
    const expected = interpolate(step.expect, vars);
    const diff = match(expected, result);
    if (diff)
      throw new StepFailure({ status: 'failed', at: step.pos, step: label, message: diff, expected, seen: result });
  }
  if (step.save) vars[step.save] = result;
}

/** Returns when the call failed as the step expects; otherwise throws the step's failure (or errored outcome). */
function judgeError(step: OpStep, label: string, err: unknown): void {
  const e = toProseError(err);
  if ((!(err instanceof ProseError) && !(err && typeof err === 'object' && 'code' in err)) || ERRORED_CODES.has(e.code))
    throw new StepFailure({
      status: 'errored',
      at: step.pos,
      step: label,
      error: serializeError(e),
      evidence: evidenceOf(err),
    });
  if (step.error === e.code) {
    if (step.message !== undefined && !new RegExp(step.message, 'u').test(e.message)) {
      throw new StepFailure({
        status: 'failed',
        at: step.pos,
        step: label,
        message: `error ${e.code} as expected, but its message ${show(e.message)} does not match /${step.message}/`,
        expected: step.message,
        seen: e.message,
      });
    }
    return;
  }
  const expected = step.error ? `error ${step.error}` : 'success';
  throw new StepFailure({
    status: 'failed',
    at: step.pos,
    step: label,
    message: `expected ${expected}, got ${e.code}: ${e.message}`,
    expected,
    seen: serializeError(e),
  });
}

function toActor(step: OpStep, args: Record<string, unknown>, vars: Vars): Actor {
  if (step.actor === undefined) return defaultActor(step.op, args as OpArgs[OpName]);
  if (step.actor === 'vm') return { role: 'vm' };
  const a = interpolate(step.actor, vars) as { binding?: string; agent?: string; executionId?: number | null };
  return { role: 'subagent', ...a };
}
