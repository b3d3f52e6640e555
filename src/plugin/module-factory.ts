import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Actor } from '../core/actor.ts';
import { STORAGE_KINDS, type Backend, type BackendEnv, type BackendFactory } from '../core/backend.ts';
import { isCapability } from '../core/capabilities.ts';
import { ProseError, toProseError } from '../core/errors.ts';
import type { OpArgs, OpName, OpResults } from '../core/ops.ts';
import { DEFAULT_TIMEOUT_MS } from './protocol-messages.ts';
import { settleWithin } from '../core/settle-within.ts';

export interface ModuleOptions {
  /** How long one call of the module (open, call, close, dispose) may take to settle (default 10 s, as exec's). */
  timeoutMs?: number;
}

/**
 * Loads a JS or TS module (tsx handles TS when running from source) exporting a backend factory as `factory` or
 * as the default export, checks its shape and wraps it so errors thrown by plain JavaScript (an Error with a
 * contract `code`) reach the runner as ProseErrors. Every call is timed here, as an exec plugin's requests are timed
 * in its session, rather than where the runner calls the backend: the runner times op steps only, not the case's
 * own createRun, layout checks, probes' setup or close, and a timeout below the runner's step timeout makes a hang
 * the plugin's error (E_PLUGIN) whoever called.
 */
export async function moduleFactory(path: string, opts: ModuleOptions = {}): Promise<BackendFactory> {
  let mod: Record<string, unknown>;
  try {
    mod = await importFile(resolve(path));
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new ProseError('E_PLUGIN', `module ${path}: cannot load: ${why}`, {
      location: { file: path },
      cause: err,
      hint: 'the module must be an ES module (or TypeScript) that loads without throwing',
    });
  }
  const which = mod.factory !== undefined ? 'factory' : 'default';
  const f = mod[which];
  if (f === undefined)
    throw shapeError(
      path,
      'exports neither "factory" nor a default export',
      'export const factory = { name, kind, capabilities, open(env) }',
    );
  return wrapFactory(checkShape(path, which, f), { path, ms: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS });
}

/**
 * `import()` of the file. Bundled (the single binary, the workers' bundle) every import() is compiled to the
 * bundle's own require, which takes no file: URL and, in a single binary, reaches built-in modules only; there a
 * require made for the file loads it, an ES module included (require(esm): Node 22.12 and later).
 */
async function importFile(file: string): Promise<Record<string, unknown>> {
  if (typeof require === 'function') return createRequire(file)(file) as Record<string, unknown>;
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

function shapeError(path: string, what: string, hint?: string): ProseError {
  return new ProseError('E_PLUGIN', `module ${path}: ${what}`, { location: { file: path }, hint });
}

function checkShape(path: string, which: string, f: unknown): BackendFactory {
  const ex = `export "${which}"`;
  if (!f || typeof f !== 'object') throw shapeError(path, `${ex} is not an object (got ${typeof f})`);
  const o = f as Record<string, unknown>;
  if (typeof o.open !== 'function') throw shapeError(path, `${ex} has no open() function`);
  if (typeof o.name !== 'string' || o.name === '') throw shapeError(path, `${ex} has no "name" string`);
  if (!(STORAGE_KINDS as readonly unknown[]).includes(o.kind))
    throw shapeError(path, `${ex} has "kind" ${JSON.stringify(o.kind)}; expected one of ${STORAGE_KINDS.join(', ')}`);
  if (!Array.isArray(o.capabilities)) throw shapeError(path, `${ex} has no "capabilities" array`);
  const unknown = o.capabilities.filter((c) => !isCapability(c));
  if (unknown.length)
    throw shapeError(path, `${ex} declares unknown capabilities ${unknown.map((c) => JSON.stringify(c)).join(', ')}`);
  if (o.description !== undefined && typeof o.description !== 'string')
    throw shapeError(path, `${ex} has a "description" that is not a string`);
  return {
    ...(o as unknown as BackendFactory),
    description: (o.description as string | undefined) ?? `module plugin: ${path}`,
  };
}

/** Where a module's calls are timed, and after how long. */
interface Timing {
  path: string;
  ms: number;
}

function wrapFactory(f: BackendFactory, t: Timing): BackendFactory {
  return {
    name: f.name,
    kind: f.kind,
    capabilities: Object.freeze([...f.capabilities]),
    description: f.description,
    ...(f.settings ? { settings: f.settings } : {}),
    open: async (env: BackendEnv) => wrapBackend(f.name, await callPlugin(t, `${f.name} open`, () => f.open(env)), t),
    ...(f.dispose ? { dispose: (env: BackendEnv) => callPlugin(t, `${f.name} dispose`, () => f.dispose!(env)) } : {}),
  };
}

function wrapBackend(name: string, b: unknown, t: Timing): Backend {
  const o = b as Record<string, unknown> | null;
  if (!o || typeof o.call !== 'function' || typeof o.close !== 'function') {
    throw new ProseError(
      'E_PLUGIN',
      `module backend ${name}: open() must resolve to an object with call() and close() functions`,
    );
  }
  const backend = o as unknown as Backend;
  return {
    call: <K extends OpName>(op: K, args: OpArgs[K], actor: Actor) =>
      callPlugin(t, `${name} call ${op}`, () => backend.call(op, args, actor)) as Promise<OpResults[K]>,
    ...(typeof o.storage === 'function' ? { storage: () => backend.storage!() } : {}),
    close: () => callPlugin(t, `${name} close`, () => backend.close()),
  };
}

/**
 * Keeps contract codes of plain `Error`s with a `code`; anything else is the backend failing (E_BACKEND). A call that
 * has not settled within the timeout is E_PLUGIN naming it.
 */
async function callPlugin<T>(t: Timing, what: string, fn: () => T | Promise<T>): Promise<T> {
  const late = () =>
    new ProseError('E_PLUGIN', `module backend ${what}: no answer within ${t.ms} ms`, {
      location: { file: t.path },
      hint: 'every promise a module plugin returns must settle; a slow backend needs a longer plugin timeout',
    });
  try {
    // fn runs now, as before the timer: a synchronous throw still rejects.
    return await settleWithin(new Promise<T>((r) => r(fn())), t.ms, late);
  } catch (err) {
    throw toProseError(err, 'E_BACKEND');
  }
}
