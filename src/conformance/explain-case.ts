import type { Actor } from '../core/actor.ts';
import type { Backend, BackendEnv, BackendFactory } from '../core/backend.ts';
import { DEFAULT_EDITION } from '../core/editions.ts';
import { serializeError, toProseError } from '../core/errors.ts';
import type { OpArgs, OpName, OpResults } from '../core/ops.ts';
import type { BaseStep } from './base-step.ts';
import type { Case } from './case-types.ts';
import type { Outcome } from './outcome.ts';
import type { StepObserver } from './run-context.ts';
import { explainStep } from './steps/step-kinds.ts';
import { interpolate, type Vars } from './template.ts';
import { unreachable } from './unreachable.ts';

/**
 * `test --explain CASE`: the case's steps as they run, each call as a protocol line and its reply, so an author
 * in any language can replay a failing case by hand. An exec plugin's lines are printed exactly as written (the
 * session's wire tap); a built-in or module backend's calls are printed as the same messages would be.
 */
export function explainObserver(write: (line: string) => void): StepObserver {
  return {
    note: (text) => write(`# ${text}`),
    step: (step, vars) => write(describeStep(step, vars)),
  };
}

/** The line printed for a protocol message: `->` harness to plugin, `<-` plugin to harness. */
export function wireLine(direction: 'sent' | 'received', line: string): string {
  return `${direction === 'sent' ? '->' : '<-'} ${line}`;
}

function describeStep(step: BaseStep, vars: Vars): string {
  const show = (v: unknown) => {
    try {
      return JSON.stringify(interpolate(v, vars));
    } catch {
      return JSON.stringify(v);
    }
  };
  return explainStep(step, show);
}

/** The case's header lines. */
export function explainHeader(c: Case, backend: BackendFactory, exec: boolean): string[] {
  return [
    `case ${c.id}: ${c.title}`,
    `  at ${c.pos.file}:${c.pos.line}; spec: ${c.spec}`,
    `  requires: ${c.requires.join(', ') || 'nothing'}`,
    `backend ${backend.name} (kind ${backend.kind}; edition ${backend.edition ?? DEFAULT_EDITION}; ${backend.capabilities.join(', ')})`,
    exec
      ? '# lines below are the protocol exactly as written: -> harness to plugin (stdin), <- plugin to harness (stdout); each open starts a new process'
      : '# a built-in or module backend: lines below are the messages an exec plugin would receive and the replies equal to what this backend answered',
  ];
}

/** The outcome, with what was expected and what was seen. */
export function explainOutcome(o: Outcome): string[] {
  switch (o.status) {
    case 'passed':
      return ['', `outcome: passed (${o.layoutChecks} layout checks, ${o.layoutNotApplicable} not applicable)`];
    case 'skipped':
      return ['', `outcome: skipped: ${o.reason}`];
    case 'failed':
      return [
        '',
        `outcome: FAILED at ${o.at.file}:${o.at.line} (${o.step})`,
        `  ${o.message}`,
        ...(o.expected !== undefined ? [`  expected: ${JSON.stringify(o.expected)}`] : []),
        ...(o.seen !== undefined ? [`  seen:     ${JSON.stringify(o.seen)}`] : []),
      ];
    case 'errored':
      return [
        '',
        `outcome: ERRORED${o.at ? ` at ${o.at.file}:${o.at.line}` : ''}${o.step ? ` (${o.step})` : ''}: ${o.error.code} ${o.error.message}`,
        ...(o.evidence ? o.evidence.split('\n').map((l) => `  ${l}`) : []),
      ];
    case 'xfailed':
      return [...explainOutcome(o.failure), `  (expected to fail: ${o.reason})`];
    case 'xpassed':
      return ['', `outcome: passed, but the expectations file says it fails (${o.reason})`];
    default:
      return unreachable(o, 'outcome');
  }
}

/**
 * A built-in or module backend whose open, calls and close are printed as the protocol messages an exec plugin
 * would be sent, with replies built from what the backend answered (a thrown contract error becomes an error reply).
 */
export function tracedFactory(factory: BackendFactory, write: (line: string) => void): BackendFactory {
  let seq = 0;
  const exchange = async <T>(
    request: Record<string, unknown>,
    run: () => Promise<T>,
    asResult: (r: T) => Record<string, unknown>,
  ): Promise<T> => {
    const s = seq++;
    write(wireLine('sent', JSON.stringify({ type: request.type, seq: s, ...request })));
    try {
      const r = await run();
      write(wireLine('received', JSON.stringify({ type: 'result', seq: s, result: asResult(r) })));
      return r;
    } catch (err) {
      write(wireLine('received', JSON.stringify({ type: 'error', seq: s, ...serializeError(toProseError(err)) })));
      throw err;
    }
  };
  return {
    ...factory,
    open: async (env: BackendEnv) => {
      seq = 1; // an exec plugin's process has spent seq 0 on hello
      const b = await exchange(
        {
          type: 'open',
          env: {
            projectDir: env.projectDir,
            homeDir: env.homeDir,
            storageKey: env.storageKey,
            decisions: env.decisions,
            edition: env.edition ?? DEFAULT_EDITION,
          },
        },
        () => factory.open(env),
        () => ({}),
      );
      const traced: Backend = {
        call: <K extends OpName>(op: K, args: OpArgs[K], actor: Actor) =>
          exchange(
            { type: 'call', op, args, actor },
            () => b.call(op, args, actor),
            (r) => r as Record<string, unknown>,
          ) as Promise<OpResults[K]>,
        close: () =>
          exchange(
            { type: 'close' },
            () => b.close(),
            () => ({}),
          ),
        ...(b.storage ? { storage: () => b.storage!() } : {}),
      };
      return traced;
    },
  };
}
