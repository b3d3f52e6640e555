import type { Actor } from '../core/actor.ts';
import type { Backend, BackendEnv, BackendFactory } from '../core/backend.ts';
import type { Capability } from '../core/capabilities.ts';
import type { Decisions } from '../core/decisions.ts';
import { DEFAULT_EDITION, type Edition } from '../core/editions.ts';
import type { OpArgs, OpName, OpResults } from '../core/ops.ts';
import type { StateStore } from '../core/store.ts';
import type { FindingsFilter } from '../conformance/run-subagent.ts';
import { filesystemBackend, filesystemFactory } from '../backends/filesystem/index.ts';
import { FsCurrentStore } from '../backends/filesystem/current-store.ts';
import { FsStore } from '../backends/filesystem/fs-store.ts';

/** A deliberately broken reference backend: one real bug a backend author could write. The suite must kill it. */
export interface Mutant {
  name: string;
  /** The bug, in one sentence. */
  bug: string;
  factory: BackendFactory;
  /** A bug in the session checker instead of the backend: what it does to the findings a subagent step sees. */
  checker?: FindingsFilter;
  /**
   * The built-in backend it is a mutant of, whose results say which cases count as kills (default `filesystem`):
   * a mutant of the sqlite backend is held to the cases that pass on sqlite, its SQL layout checks among them
   * (`postgres`: the postgres backend on pg-mem, for mutants judged past v0).
   */
  reference?: 'filesystem' | 'sqlite' | 'postgres';
  /**
   * The edition the mutant is judged in (default v0): its storage is opened in that edition, and its kills count
   * only against the cases that pass on the reference backend in that edition.
   */
  edition?: Edition;
  /**
   * The areas whose cases judge it (default every area): only for a mutant of an edition besides v0, whose reference
   * and control then run just these areas' cases instead of the whole suite a second time.
   */
  areas?: readonly string[];
  /**
   * Readings the run judging it pins instead of the defaults (decisions skip-rule, semantic-diff): its kills are then
   * held to the cases the reference backend passes under them (pinned-reference.ts), on `areas`.
   */
  pinned?: Partial<Decisions>;
}

/** Where a mutant's reference results are kept: the backend's name, `@edition` past v0 (`filesystem@current`). */
export function referenceOf(m: Pick<Mutant, 'reference' | 'edition'>): string {
  const backend = m.reference ?? 'filesystem';
  const edition = m.edition ?? DEFAULT_EDITION;
  return edition === DEFAULT_EDITION ? backend : `${backend}@${edition}`;
}

export interface MutationContext {
  real: Backend;
  store: StateStore;
  env: BackendEnv;
}

export type Intercept = (
  op: OpName,
  args: Record<string, unknown>,
  actor: Actor,
  ctx: MutationContext,
) => Promise<unknown>;

export interface Mutation {
  /** The store the mutant starts from, when a bug lives in a hook the store calls on itself (a subclass). */
  base?: (env: BackendEnv, decisions: Decisions) => FsStore;
  /** Replaces store methods (the rest delegate to the real filesystem store). */
  store?: (base: FsStore, env: BackendEnv) => Partial<StateStore>;
  /** Sees every call before the engine; call `ctx.real.call` to go on. */
  intercept?: Intercept;
  /** Decisions the buggy backend uses instead of the pinned ones (while reports still print the pinned ones). */
  decisions?: (d: Decisions) => Decisions;
  /** A checker bug (the backend is unmutated): filters the findings of every subagent step. */
  checker?: FindingsFilter;
  /** The capabilities the buggy backend declares instead of the filesystem backend's. */
  capabilities?: (caps: readonly Capability[]) => readonly Capability[];
  /** The edition it is judged in (default v0); `areas`: the only areas judging it (see Mutant). */
  edition?: Edition;
  areas?: readonly string[];
  /** The readings the judging run pins (see Mutant); the buggy backend's own are `decisions`. */
  pinned?: Partial<Decisions>;
}

/**
 * Builds a mutant of the filesystem backend: same storage, same capabilities, one bug. Its storage is opened in the
 * edition the case gives (env.edition, which its factory's edition sets), so a worker process that finds the mutant
 * by name opens the same tree.
 */
export function mutant(name: string, bug: string, m: Mutation): Mutant {
  const factory: BackendFactory = {
    ...filesystemFactory,
    name: `mutant:${name}`,
    spec: `mutant:${name}`,
    description: `the filesystem backend with one bug: ${bug}`,
    ...(m.capabilities ? { capabilities: m.capabilities(filesystemFactory.capabilities) } : {}),
    ...(m.edition ? { edition: m.edition } : {}),
    async open(env) {
      const decisions = m.decisions ? m.decisions(env.decisions) : env.decisions;
      const base = m.base ? m.base(env, decisions) : baseStore(env, decisions);
      const store = m.store ? delegate(base, m.store(base, env)) : base;
      const real = filesystemBackend(store, decisions);
      if (!m.intercept) return real;
      const intercept = m.intercept;
      const ctx: MutationContext = { real, store, env };
      return {
        call: <K extends OpName>(op: K, args: OpArgs[K], actor: Actor) =>
          intercept(op, args as Record<string, unknown>, actor, ctx) as Promise<OpResults[K]>,
        storage: real.storage,
        close: () => real.close(),
      };
    },
  };
  return {
    name,
    bug,
    factory,
    ...(m.checker ? { checker: m.checker } : {}),
    ...(m.edition ? { edition: m.edition } : {}),
    ...(m.areas ? { areas: m.areas } : {}),
    ...(m.pinned ? { pinned: m.pinned } : {}),
  };
}

/** The unmutated store of the edition the storage is opened in, as the filesystem backend makes it. */
function baseStore(env: BackendEnv, decisions: Decisions): FsStore {
  return env.edition === 'current'
    ? new FsCurrentStore(env.projectDir, env.homeDir, decisions)
    : new FsStore(env.projectDir, env.homeDir, decisions);
}

/** The same mutant judged in another edition (the control is one per edition judged). */
export function inEditionOf(m: Mutant, edition: Edition): Mutant {
  return edition === (m.edition ?? DEFAULT_EDITION) ? m : { ...m, edition, factory: { ...m.factory, edition } };
}

function delegate(base: FsStore, overrides: Partial<StateStore>): StateStore {
  const out: Record<string, unknown> = {};
  // Every method down the chain (FsCurrentStore overrides FsStore's), the subclass's own first.
  for (
    let proto = Object.getPrototypeOf(base);
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  )
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key === 'constructor' || key in out) continue;
      const v = (base as unknown as Record<string, unknown>)[key];
      if (typeof v === 'function') out[key] = v.bind(base);
    }
  // Public fields (the world-model store) carry over as they are.
  if (base.worldModel) out.worldModel = base.worldModel;
  return Object.assign(out, overrides) as unknown as StateStore;
}

/** Passes the call through unchanged. */
export const pass = (op: OpName, args: Record<string, unknown>, actor: Actor, ctx: MutationContext) =>
  ctx.real.call(op, args as never, actor);
