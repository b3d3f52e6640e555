import type { Actor } from '../core/actor.ts';
import type { Backend, BackendEnv, BackendFactory } from '../core/backend.ts';
import type { Capability } from '../core/capabilities.ts';
import type { Decisions } from '../core/decisions.ts';
import type { OpArgs, OpName, OpResults } from '../core/ops.ts';
import type { StateStore } from '../core/store.ts';
import type { FindingsFilter } from '../conformance/run-subagent.ts';
import { filesystemBackend, filesystemFactory } from '../backends/filesystem/index.ts';
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
   * a mutant of the sqlite backend is held to the cases that pass on sqlite, its SQL layout checks among them.
   */
  reference?: 'filesystem' | 'sqlite';
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
}

/** Builds a mutant of the filesystem backend: same storage, same capabilities, one bug. */
export function mutant(name: string, bug: string, m: Mutation): Mutant {
  const factory: BackendFactory = {
    ...filesystemFactory,
    name: `mutant:${name}`,
    spec: `mutant:${name}`,
    description: `the filesystem backend with one bug: ${bug}`,
    ...(m.capabilities ? { capabilities: m.capabilities(filesystemFactory.capabilities) } : {}),
    async open(env) {
      const decisions = m.decisions ? m.decisions(env.decisions) : env.decisions;
      const base = new FsStore(env.projectDir, env.homeDir, decisions);
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
  return { name, bug, factory, ...(m.checker ? { checker: m.checker } : {}) };
}

function delegate(base: FsStore, overrides: Partial<StateStore>): StateStore {
  const out: Record<string, unknown> = {};
  for (const key of Object.getOwnPropertyNames(FsStore.prototype)) {
    if (key === 'constructor') continue;
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
