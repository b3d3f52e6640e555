import { checkRole, checkVmBindsSmall, checkVmNeverOverwrites, type Actor } from './actor.ts';
import type { Backend } from './backend.ts';
import type { Capability } from './capabilities.ts';
import { checkArgs } from './check-args.ts';
import type { Decisions } from './decisions.ts';
import { ProseError } from './errors.ts';
import { checkEvent, foldEvents, scopeChain, toResumeState, type ExecutionState } from './execution-log.ts';
import type { AgentLocation, BindingRecord, ExecutionEvent, ExecutionId, RunRef } from './model.ts';
import { checkName } from './names.ts';
import { anonName } from './numbering.ts';
import { OPS, type OpArgs, type OpName, type OpResults } from './ops.ts';
import { checkRunId, newRunId } from './run-id.ts';
import type { StateStore } from './store.ts';
import { isIsoDateTime, isoSeconds } from './time-format.ts';

export interface SemanticsOptions {
  store: StateStore;
  /** Handlers for operations the core does not implement itself (the world-model ops come from src/canon). */
  extraHandlers?: Partial<Handlers>;
  decisions: Decisions;
  capabilities: readonly Capability[];
  now?: () => Date;
  random?: () => number;
}

type CoreOp = Exclude<OpName, WorldModelOp>;
/** Operations whose semantics live outside the core (they need src/canon), supplied through `extraHandlers`. */
export type WorldModelOp =
  | 'writeEnvelope'
  | 'readEnvelope'
  | 'commitWorldModel'
  | 'failRender'
  | 'readPublished'
  | 'readVersion'
  | 'listReceipts'
  | 'writeWorkspace';
export type Handlers = { [K in OpName]: (args: OpArgs[K], actor?: Actor) => Promise<OpResults[K]> };

/**
 * The semantics every built-in backend shares: names, roles, const, scope chains, anonymous names, recursion
 * limits and the event rules. A backend supplies only its `StateStore`.
 */
export function createBackend(opts: SemanticsOptions): Backend {
  const { store, decisions } = opts;
  const caps = new Set(opts.capabilities);
  const now = opts.now ?? (() => new Date());

  const runOf = async (run: RunRef) => {
    const rec = await store.readRun(run);
    if (!rec) throw new ProseError('E_NOT_FOUND', `no run ${JSON.stringify(run)}`, { location: { field: 'run' } });
    return rec;
  };
  const stateOf = async (run: RunRef): Promise<ExecutionState> => foldEvents(await store.readEvents(run));
  /** Builds the next VM event from the current state and appends it, atomically where the store can. */
  const appendFrom = async (run: RunRef, make: (state: ExecutionState) => ExecutionEvent): Promise<ExecutionEvent> => {
    if (store.appendEventAtomically) return store.appendEventAtomically(run, (events) => make(foldEvents(events)));
    const event = make(await stateOf(run));
    await store.appendEvent(run, event);
    return event;
  };
  const frameMustExist = (state: ExecutionState, id: ExecutionId | null | undefined) => {
    if (id != null && !state.frames.has(id)) {
      throw new ProseError('E_STATE', `no frame with execution_id ${id}`, {
        location: { field: 'executionId' },
        hint: 'enterFrame allocates execution ids',
      });
    }
  };
  const agentLoc = async (a: {
    agent: string;
    scope: AgentLocation['scope'];
    run?: RunRef;
    path?: string;
  }): Promise<AgentLocation> => {
    checkName('agent', a.agent, 'agent');
    const need: Partial<Record<AgentLocation['scope'], Capability>> = {
      project: 'project-scope',
      user: 'user-scope',
      custom: 'custom-scope',
    };
    const cap = need[a.scope];
    if (cap && !caps.has(cap))
      throw new ProseError('E_UNSUPPORTED', `${a.scope} scope needs the ${cap} capability`, {
        location: { field: 'scope' },
      });
    if (a.scope === 'execution') {
      if (a.run === undefined)
        throw new ProseError('E_INVALID_ARGUMENT', 'execution scope needs "run"', { location: { field: 'run' } });
      await runOf(a.run);
    }
    if (a.scope === 'custom') checkCustomPath(a.path);
    return {
      agent: a.agent,
      scope: a.scope,
      ...(a.scope === 'execution' ? { run: a.run } : {}),
      ...(a.scope === 'custom' ? { path: a.path } : {}),
    };
  };

  const core: { [K in CoreOp]: Handlers[K] } = {
    async createRun(a) {
      // One instant for the id's digits and started:, so they never disagree across a second boundary.
      const at = now();
      const runId = a.runId === undefined ? newRunId(at, opts.random) : checkRunId(a.runId);
      const run = await store.createRun({
        runId,
        program: a.program,
        programPath: a.programPath,
        status: 'running',
        startedAt: isoSeconds(at),
      });
      return { runId, run };
    },
    async getRun(a) {
      const r = await runOf(a.run);
      return {
        runId: r.runId,
        status: r.status,
        program: r.program,
        ...(r.programPath !== undefined ? { programPath: r.programPath } : {}),
      };
    },
    async setRunStatus(a) {
      await runOf(a.run);
      await store.setRunStatus(a.run, a.status);
      return {};
    },
    async createImport(a) {
      checkName('handle', a.handle, 'handle');
      checkName('slug', a.slug, 'slug');
      await runOf(a.run);
      const at = now();
      const run = await store.createImport(a.run, a.handle, a.slug, {
        runId: newRunId(at, opts.random),
        program: a.program,
        status: 'running',
        startedAt: isoSeconds(at),
      });
      return { run };
    },
    async enterFrame(a) {
      checkName('block', a.block, 'block');
      await runOf(a.run);
      const parent = a.parent ?? null;
      const max = a.maxDepth ?? decisions.maxRecursionDepth;
      if (max < 1)
        throw new ProseError('E_INVALID_ARGUMENT', 'maxDepth must be at least 1', { location: { field: 'maxDepth' } });
      const event = await appendFrom(a.run, (state) => {
        let depth = 1;
        if (parent !== null) {
          const p = state.frames.get(parent);
          if (!p) throw new ProseError('E_STATE', `no parent frame ${parent}`, { location: { field: 'parent' } });
          if (p.status !== 'executing')
            throw new ProseError('E_STATE', `parent frame ${parent} already exited`, { location: { field: 'parent' } });
          depth = p.depth + 1;
        }
        if (depth > max)
          throw new ProseError('E_RECURSION_LIMIT', `block ${a.block} at depth ${depth} exceeds max_depth ${max}`);
        return {
          type: 'frame-enter',
          executionId: state.nextExecutionId,
          block: a.block,
          parent,
          depth,
          ...(a.args ? { args: a.args } : {}),
        };
      });
      const e = event as Extract<ExecutionEvent, { type: 'frame-enter' }>;
      return { executionId: e.executionId, depth: e.depth };
    },
    async exitFrame(a) {
      await runOf(a.run);
      const event = { type: 'frame-exit', executionId: a.executionId, status: a.status ?? 'completed' } as const;
      if (event.status !== 'completed' && event.status !== 'failed')
        throw new ProseError('E_INVALID_ARGUMENT', 'status must be completed or failed', {
          location: { field: 'status' },
        });
      await appendFrom(a.run, (state) => {
        checkEvent(state, event);
        return event;
      });
      return {};
    },
    async recordEvent(a) {
      await runOf(a.run);
      const t = a.event.type;
      if (t === 'frame-enter' || t === 'frame-exit' || t === 'anon') {
        throw new ProseError(
          'E_INVALID_ARGUMENT',
          `${t} events are recorded by ${t === 'anon' ? 'allocateAnon' : 'enterFrame/exitFrame'}`,
          { location: { field: 'event.type' } },
        );
      }
      await appendFrom(a.run, (state) => {
        if (t === 'statement') frameMustExist(state, a.event.executionId);
        checkEvent(state, a.event);
        return a.event;
      });
      return {};
    },
    async allocateAnon(a) {
      await runOf(a.run);
      const event = await appendFrom(a.run, (state) => ({
        type: 'anon',
        name: anonName(state.anonCount + 1, decisions.anonWidth),
      }));
      return { name: (event as Extract<ExecutionEvent, { type: 'anon' }>).name };
    },
    async bind(a, actor) {
      checkName('binding', a.name, 'name');
      await runOf(a.run);
      const executionId = a.executionId ?? null;
      if (executionId !== null) frameMustExist(await stateOf(a.run), executionId);
      const bytes = Buffer.byteLength(a.value, 'utf8');
      if (actor?.role === 'vm') checkVmBindsSmall(a.name, a.kind, bytes, decisions.attachmentThresholdBytes);
      const existing = await store.readBinding(a.run, a.name, executionId);
      if (existing?.kind === 'const') {
        throw new ProseError(
          'E_CONST_REBIND',
          `const ${a.name} is already bound${executionId === null ? '' : ` in execution_id ${executionId}`}`,
        );
      }
      if (actor?.role === 'vm') checkVmNeverOverwrites(a.name, a.kind, existing?.kind);
      const attach = caps.has('attachments') && bytes > decisions.attachmentThresholdBytes;
      const record: BindingRecord = {
        name: a.name,
        kind: a.kind,
        value: a.value,
        executionId,
        ...(a.source !== undefined ? { source: a.source } : {}),
      };
      const { location } = await store.writeBinding(a.run, record, attach);
      return { name: a.name, executionId, attached: attach, location };
    },
    async resolve(a) {
      checkName('binding', a.name, 'name');
      await runOf(a.run);
      const chain = scopeChain(await stateOf(a.run), a.executionId ?? null);
      const found = store.resolveBinding
        ? await store.resolveBinding(a.run, a.name, chain)
        : await firstInChain(store, a.run, a.name, chain);
      if (!found)
        throw new ProseError(
          'E_NOT_FOUND',
          `no binding ${a.name} visible from ${a.executionId == null ? 'root' : `execution_id ${a.executionId}`}`,
        );
      return {
        name: found.name,
        kind: found.kind,
        value: found.value,
        executionId: found.executionId,
        attached: !!found.attached,
        ...(found.source ? { source: found.source } : {}),
      };
    },
    async listBindings(a) {
      await runOf(a.run);
      const all = await store.listBindings(a.run);
      return { bindings: all.map(summary).sort(byNameThenScope) };
    },
    async writeMemory(a) {
      return store.writeMemory(await agentLoc(a), a.memory);
    },
    async readMemory(a) {
      const memory = await store.readMemory(await agentLoc(a));
      if (memory === undefined) throw new ProseError('E_NOT_FOUND', `agent ${a.agent} has no ${a.scope} memory yet`);
      return { memory };
    },
    async appendSegment(a) {
      const loc = await agentLoc(a);
      if (a.timestamp !== undefined && !isIsoDateTime(a.timestamp)) {
        throw new ProseError('E_INVALID_ARGUMENT', `timestamp ${JSON.stringify(a.timestamp)} is not ISO 8601`, {
          location: { field: 'timestamp' },
          hint: 'for example 2026-01-15T14:32:15Z',
        });
      }
      const seg = await store.appendSegment(loc, {
        timestamp: a.timestamp ?? isoSeconds(now()),
        prompt: a.prompt,
        summary: a.summary,
      });
      return { number: seg.number, file: seg.file };
    },
    async listSegments(a) {
      return { segments: await store.listSegments(await agentLoc(a)) };
    },
    async resume(a) {
      const rec = await runOf(a.run);
      const state = await stateOf(a.run);
      const bindings = (await store.listBindings(a.run)).map(summary).sort(byNameThenScope);
      return toResumeState(a.run, rec.status, state, bindings);
    },
  };

  const handlers: Partial<Handlers> = { ...core, ...opts.extraHandlers };

  return {
    async call<K extends OpName>(op: K, args: OpArgs[K], actor: Actor): Promise<OpResults[K]> {
      if (!Object.prototype.hasOwnProperty.call(OPS, op))
        throw new ProseError('E_UNSUPPORTED', `unknown operation ${JSON.stringify(op)}`);
      const spec = OPS[op];
      if (spec.capability && !caps.has(spec.capability)) {
        throw new ProseError(
          'E_UNSUPPORTED',
          `${op} needs the ${spec.capability} capability, which this backend does not declare`,
        );
      }
      const checked = checkArgs(op, args);
      checkRole(op, checked, actor);
      const handler = (handlers as Partial<Handlers>)[op] as
        ((x: OpArgs[K], actor: Actor) => Promise<OpResults[K]>) | undefined;
      if (!handler) throw new ProseError('E_UNSUPPORTED', `this backend does not implement ${op}`);
      return handler(checked, actor);
    },
    storage: store.storage ? () => store.storage!() : undefined,
    close: () => store.close(),
  };
}

async function firstInChain(store: StateStore, run: RunRef, name: string, chain: (ExecutionId | null)[]) {
  for (const id of chain) {
    const b = await store.readBinding(run, name, id);
    if (b) return b;
  }
  return undefined;
}

/**
 * A custom persist path is relative to the project and cannot climb out of it, be absolute on any system
 * (`/x`, `\\x`, `C:x`, `\\\\server\\share`) or point into the backend's own `.prose/` state.
 */
function checkCustomPath(path: string | undefined): void {
  if (typeof path !== 'string' || path.length === 0)
    throw new ProseError('E_INVALID_ARGUMENT', 'custom scope needs "path"', { location: { field: 'path' } });
  const segs = path.split(/[\\/]/).filter((x) => x !== '' && x !== '.');
  if (segs[0] === '.prose') {
    throw new ProseError(
      'E_INVALID_NAME',
      `custom agent path ${JSON.stringify(path)} points into .prose/, where the backend keeps its own state`,
      { location: { field: 'path' } },
    );
  }
  if (
    path.startsWith('/') ||
    path.startsWith('\\') ||
    /^[A-Za-z]:/.test(path) ||
    segs.includes('..') ||
    /[\u0000-\u001f]/.test(path)
  ) {
    throw new ProseError(
      'E_INVALID_NAME',
      `custom agent path ${JSON.stringify(path)} must be relative to the project and may not contain ".."`,
      { location: { field: 'path' } },
    );
  }
}

const summary = (b: BindingRecord) => ({
  name: b.name,
  kind: b.kind,
  executionId: b.executionId,
  attached: !!b.attached,
});
const byNameThenScope = (
  x: { name: string; executionId: ExecutionId | null },
  y: { name: string; executionId: ExecutionId | null },
) => (x.name < y.name ? -1 : x.name > y.name ? 1 : (x.executionId ?? 0) - (y.executionId ?? 0));
