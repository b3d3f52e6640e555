import type { Actor } from '../../src/core/actor.ts';
import type { Backend, BackendFactory } from '../../src/core/backend.ts';
import { ProseError } from '../../src/core/errors.ts';
import type { OpArgs, OpName, OpResults } from '../../src/core/ops.ts';
import { filesystemFactory } from '../../src/backends/filesystem/index.ts';

type Intercept = (op: OpName, args: Record<string, unknown>, actor: Actor, real: Backend) => Promise<unknown>;

/** A backend that behaves like the filesystem backend except where `intercept` says otherwise. */
export function fakeFactory(
  name: string,
  intercept: Intercept,
  base: BackendFactory = filesystemFactory,
): BackendFactory {
  return {
    ...base,
    name,
    async open(env) {
      const real = await base.open(env);
      return {
        call: <K extends OpName>(op: K, args: OpArgs[K], actor: Actor) =>
          intercept(op, args as Record<string, unknown>, actor, real) as Promise<OpResults[K]>,
        storage: real.storage,
        close: () => real.close(),
      };
    },
  };
}

const pass: Intercept = (op, args, actor, real) => real.call(op, args as never, actor);

/** Resolves root before the local frame: the classic scope bug. */
export const rootFirst = fakeFactory('root-first', async (op, args, actor, real) => {
  if (op === 'resolve') {
    try {
      return await real.call('resolve', { ...args, executionId: null } as never, actor);
    } catch {
      return real.call(op, args as never, actor);
    }
  }
  return pass(op, args, actor, real);
});

/** Reads back a torn value: the last half of every binding is lost. */
export const tornWrite = fakeFactory('torn-write', async (op, args, actor, real) => {
  const r = (await real.call(op, args as never, actor)) as Record<string, unknown>;
  if (op === 'resolve' && typeof r.value === 'string' && r.value.length > 1)
    return { ...r, value: r.value.slice(0, Math.ceil(r.value.length / 2)) };
  return r;
});

/** Throws a plain TypeError from inside the backend, as a bug would. */
export const throwsTypeError = fakeFactory('throws', async (op, args, actor, real) => {
  if (op === 'resolve') throw new TypeError("Cannot read properties of undefined (reading 'value')");
  return pass(op, args, actor, real);
});

/** Never answers resolve. */
export const hangs = fakeFactory('hangs', async (op, args, actor, real) => {
  if (op === 'resolve') return new Promise(() => undefined);
  return pass(op, args, actor, real);
});

/** Answers every error with the wrong code. */
export const wrongCodes = fakeFactory('wrong-codes', async (op, args, actor, real) => {
  try {
    return await real.call(op, args as never, actor);
  } catch (err) {
    if (err instanceof ProseError) throw new ProseError('E_STATE', err.message);
    throw err;
  }
});
