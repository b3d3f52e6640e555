import { BINDING_KINDS, RUN_STATUSES } from './model.ts';
import type { OpName, OpResults } from './ops.ts';

/**
 * The result of every operation as JSON Schema: the protocol schema carries it ($defs/results) and the TypeScript
 * result types (`OpResults`) must equal what it describes, a compile-time check below, so the two cannot drift.
 * Extra keys in a result are allowed (cases match results as subsets), so objects here do not close their keys.
 */

const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const bool = { type: 'boolean' } as const;
const nul = { type: 'null' } as const;
const oneOf = <const E extends readonly string[]>(...values: E) => ({ enum: values }) as const;
const nullable = <const S>(s: S) => ({ anyOf: [s, nul] }) as const;
const list = <const S>(items: S) => ({ type: 'array', items }) as const;
const record = <const S>(values: S) => ({ type: 'object', additionalProperties: values }) as const;
const anyObject = { type: 'object' } as const;
const empty = { type: 'object', properties: {}, required: [] } as const;

/** An object with `properties`; every key is required except those named in `optional`. */
function obj<const P extends Record<string, unknown>, const O extends keyof P & string = never>(
  properties: P,
  optional: readonly O[] = [],
) {
  const required = Object.keys(properties).filter((k) => !(optional as readonly string[]).includes(k)) as Exclude<
    keyof P & string,
    O
  >[];
  return { type: 'object', properties, required } as {
    type: 'object';
    properties: P;
    required: Exclude<keyof P & string, O>[];
  };
}

const executionId = int;
const runStatus = { enum: RUN_STATUSES } as const;
const bindingKind = { enum: BINDING_KINDS } as const;
const statementStatus = oneOf('executing', 'completed', 'failed', 'skipped');
const bindingSummary = obj({ name: str, kind: bindingKind, executionId: nullable(executionId), attached: bool });
const files = record(str);
const fingerprints = record(str);

export const RESULT_SCHEMAS = {
  createRun: obj({ runId: str, run: str }),
  getRun: obj({ runId: str, status: runStatus, program: str, programPath: str }, ['programPath']),
  setRunStatus: empty,
  createImport: obj({ run: str }),
  enterFrame: obj({ executionId, depth: int }),
  exitFrame: empty,
  recordEvent: empty,
  allocateAnon: obj({ name: str }),
  bind: obj({ name: str, executionId: nullable(executionId), attached: bool, location: str }),
  resolve: obj(
    { name: str, kind: bindingKind, value: str, executionId: nullable(executionId), attached: bool, source: str },
    ['source'],
  ),
  listBindings: obj({ bindings: list(bindingSummary) }),
  writeMemory: obj({ location: str }),
  readMemory: obj({ memory: str }),
  appendSegment: obj({ number: int, file: str }),
  listSegments: obj({ segments: list(obj({ number: int, file: str, timestamp: str, prompt: str, summary: str })) }),
  resume: obj({
    run: str,
    status: runStatus,
    position: nullable(obj({ index: int, text: str, status: statementStatus })),
    bindings: list(bindingSummary),
    callStack: list(
      obj({
        executionId,
        block: str,
        parent: nullable(executionId),
        depth: int,
        status: oneOf('executing', 'waiting'),
      }),
    ),
    parallels: record(
      obj(
        {
          strategy: oneOf('all', 'first', 'any'),
          count: int,
          onFail: oneOf('fail-fast', 'continue', 'ignore'),
          branches: record(oneOf('pending', 'executing', 'completed', 'failed')),
          joined: bool,
        },
        ['count', 'onFail'],
      ),
    ),
    loops: record(
      obj({ max: int, iteration: int, exited: bool, exitReason: oneOf('condition', 'max', 'break') }, [
        'max',
        'exitReason',
      ]),
    ),
    retries: record(obj({ attempt: int, max: int })),
    errors: list(obj({ index: int, message: str })),
    nextExecutionId: int,
    anonCount: int,
  }),
  writeEnvelope: empty,
  readEnvelope: obj({ compiledIntent: anyObject, rootSource: str, sources: record(str) }),
  commitWorldModel: obj({
    status: oneOf('rendered', 'skipped'),
    version: nullable(str),
    contentHash: str,
    prev: nullable(str),
    fingerprints,
  }),
  failRender: obj({ status: oneOf('failed'), contentHash: str, prev: nullable(str) }),
  readPublished: obj({ version: nullable(str), fingerprints, files }),
  readVersion: obj({ files }),
  listReceipts: obj({ receipts: list(anyObject) }),
  writeWorkspace: empty,
} as const;

/** The TypeScript type a result schema describes (the subset of JSON Schema used above). */
export type FromSchema<S> = S extends { enum: readonly (infer E)[] }
  ? E
  : S extends { anyOf: readonly (infer A)[] }
    ? FromSchema<A>
    : S extends { type: 'string' }
      ? string
      : S extends { type: 'integer' }
        ? number
        : S extends { type: 'boolean' }
          ? boolean
          : S extends { type: 'null' }
            ? null
            : S extends { type: 'array'; items: infer I }
              ? FromSchema<I>[]
              : S extends { type: 'object'; properties: infer P; required: readonly (infer R)[] }
                ? { -readonly [K in keyof P as K extends R ? K : never]: FromSchema<P[K]> } & {
                    -readonly [K in keyof P as K extends R ? never : K]?: FromSchema<P[K]>;
                  }
                : S extends { type: 'object'; additionalProperties: infer V }
                  ? Record<string, FromSchema<V>>
                  : S extends { type: 'object' }
                    ? Record<string, unknown>
                    : never;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Fails to compile, naming the operation, when OpResults and RESULT_SCHEMAS disagree in either direction. */
export const RESULTS_AGREE: { [K in OpName]: Same<OpResults[K], FromSchema<(typeof RESULT_SCHEMAS)[K]>> } = {
  createRun: true,
  getRun: true,
  setRunStatus: true,
  createImport: true,
  enterFrame: true,
  exitFrame: true,
  recordEvent: true,
  allocateAnon: true,
  bind: true,
  resolve: true,
  listBindings: true,
  writeMemory: true,
  readMemory: true,
  appendSegment: true,
  listSegments: true,
  resume: true,
  writeEnvelope: true,
  readEnvelope: true,
  commitWorldModel: true,
  failRender: true,
  readPublished: true,
  readVersion: true,
  listReceipts: true,
  writeWorkspace: true,
};
