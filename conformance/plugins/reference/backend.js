// The reference semantics: every operation of the vocabulary, over a JsonStore. Plain JavaScript, Node only.
import { checkArgs, checkCustomPath, checkName, checkRole, checkRunId, isoSeconds, newRunId, OPS } from './checks.js';
import { fail } from './errors.js';
import { checkEvent, foldEvents, scopeChain, toResumeState } from './execution-log.js';
import { JsonStore } from './json-store.js';
import { withLock } from './lock.js';
import { bindingFile, SeedLayout } from './seed-layout.js';
import { worldModelHandlers } from './world-model.js';

export const CAPABILITIES = [
  'attachments',
  'project-scope',
  'user-scope',
  'custom-scope',
  'imports',
  'durable',
  'concurrent-writers',
  'multi-process',
  'layout:directory',
  'world-model',
  'receipts',
];

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
// The shape alone lets 2026-13-45T25:61:61Z through: the fields must also name a real instant.
const isInstant = (t) => {
  const m = ISO_8601.exec(t);
  if (!m) return false;
  const [y, mo, d, h, mi, sec] = t.slice(0, 19).split(/[-T:]/).map(Number);
  const at = new Date(Date.UTC(y, mo - 1, d, h, mi, sec));
  return (
    at.getUTCFullYear() === y &&
    at.getUTCMonth() === mo - 1 &&
    at.getUTCDate() === d &&
    at.getUTCHours() === h &&
    at.getUTCMinutes() === mi &&
    at.getUTCSeconds() === sec
  );
};
const pad = (n, width) => String(n).padStart(width, '0');
const WRITES = new Set([
  'createRun',
  'setRunStatus',
  'createImport',
  'enterFrame',
  'exitFrame',
  'recordEvent',
  'allocateAnon',
  'bind',
  'writeMemory',
  'appendSegment',
]);
// The world-model operations write the seed files themselves (world-model.js); the JSON document is not involved.

export function openBackend(env, capabilities = CAPABILITIES) {
  const caps = new Set(capabilities);
  const { decisions } = env;
  const store = new JsonStore(env);
  const layout = new SeedLayout(env);
  const now = () => new Date();

  const runOf = (ref) => store.run(ref) ?? fail('E_NOT_FOUND', `no run ${JSON.stringify(ref)}`, 'run');
  const stateOf = (ref) => foldEvents(runOf(ref).events);
  const bindingKey = (name, id) => `${name}|${id ?? ''}`;
  const summary = (b) => ({ name: b.name, kind: b.kind, executionId: b.executionId, attached: !!b.attachment });
  const byNameThenScope = (x, y) =>
    x.name < y.name ? -1 : x.name > y.name ? 1 : (x.executionId ?? 0) - (y.executionId ?? 0);
  const valueOf = (ref, b) => (b.attachment ? layout.readAttachment(ref, b) : b.value);

  const agentLoc = (a) => {
    checkName('agent', a.agent, 'agent');
    const need = { project: 'project-scope', user: 'user-scope', custom: 'custom-scope' }[a.scope];
    if (need && !caps.has(need)) fail('E_UNSUPPORTED', `${a.scope} scope needs the ${need} capability`, 'scope');
    if (a.scope === 'execution') {
      if (a.run === undefined) fail('E_INVALID_ARGUMENT', 'execution scope needs "run"', 'run');
      runOf(a.run);
    }
    if (a.scope === 'custom') checkCustomPath(a.path);
    return {
      agent: a.agent,
      scope: a.scope,
      run: a.scope === 'execution' ? a.run : undefined,
      path: a.scope === 'custom' ? a.path : undefined,
    };
  };

  const refreshState = (ref) => layout.writeState(ref, runOf(ref), stateOf(ref), store.executionAgents(ref));

  const worldModel = worldModelHandlers(layout, runOf);

  const handlers = {
    createRun(a) {
      // One instant for the id's digits and started:, so they never disagree across a second boundary.
      const at = now();
      const runId = a.runId === undefined ? newRunId(at) : checkRunId(a.runId);
      store.addRun(runId, {
        runId,
        program: a.program,
        programPath: a.programPath,
        status: 'running',
        startedAt: isoSeconds(at),
      });
      layout.writeRun(runId, runOf(runId));
      return { runId, run: runId };
    },
    getRun(a) {
      const r = runOf(a.run);
      return {
        runId: r.runId,
        status: r.status,
        program: r.program,
        ...(r.programPath !== undefined ? { programPath: r.programPath } : {}),
      };
    },
    setRunStatus(a) {
      runOf(a.run).status = a.status;
      return {};
    },
    createImport(a) {
      checkName('handle', a.handle, 'handle');
      checkName('slug', a.slug, 'slug');
      runOf(a.run);
      const ref = `${a.run}/imports/${a.handle}--${a.slug}`;
      const at = now();
      store.addRun(ref, { runId: newRunId(at), program: a.program, status: 'running', startedAt: isoSeconds(at) });
      layout.writeRun(ref, runOf(ref));
      return { run: ref };
    },
    enterFrame(a) {
      checkName('block', a.block, 'block');
      const state = stateOf(a.run);
      const parent = a.parent ?? null;
      let depth = 1;
      if (parent !== null) {
        const p = state.frames.get(parent) ?? fail('E_STATE', `no parent frame ${parent}`, 'parent');
        if (p.status !== 'executing') fail('E_STATE', `parent frame ${parent} already exited`, 'parent');
        depth = p.depth + 1;
      }
      const max = a.maxDepth ?? decisions.maxRecursionDepth;
      if (max < 1) fail('E_INVALID_ARGUMENT', 'maxDepth must be at least 1', 'maxDepth');
      if (depth > max) fail('E_RECURSION_LIMIT', `block ${a.block} at depth ${depth} exceeds max_depth ${max}`);
      const executionId = state.nextExecutionId;
      runOf(a.run).events.push({
        type: 'frame-enter',
        executionId,
        block: a.block,
        parent,
        depth,
        ...(a.args ? { args: a.args } : {}),
      });
      return { executionId, depth };
    },
    exitFrame(a) {
      const event = { type: 'frame-exit', executionId: a.executionId, status: a.status ?? 'completed' };
      if (event.status !== 'completed' && event.status !== 'failed')
        fail('E_INVALID_ARGUMENT', 'status must be completed or failed', 'status');
      checkEvent(stateOf(a.run), event);
      runOf(a.run).events.push(event);
      return {};
    },
    recordEvent(a) {
      const t = a.event.type;
      runOf(a.run);
      if (t === 'frame-enter' || t === 'frame-exit' || t === 'anon') {
        fail(
          'E_INVALID_ARGUMENT',
          `${t} events are recorded by ${t === 'anon' ? 'allocateAnon' : 'enterFrame/exitFrame'}`,
          'event.type',
        );
      }
      const state = stateOf(a.run);
      const id = a.event.executionId;
      if (t === 'statement' && id != null && !state.frames.has(id))
        fail('E_STATE', `no frame with execution_id ${id}`, 'executionId');
      checkEvent(state, a.event);
      runOf(a.run).events.push(a.event);
      return {};
    },
    allocateAnon(a) {
      const name = `anon_${pad(stateOf(a.run).anonCount + 1, decisions.anonWidth)}`;
      runOf(a.run).events.push({ type: 'anon', name });
      return { name };
    },
    bind(a, actor) {
      checkName('binding', a.name, 'name');
      const run = runOf(a.run);
      const executionId = a.executionId ?? null;
      if (executionId !== null && !stateOf(a.run).frames.has(executionId))
        fail('E_STATE', `no frame with execution_id ${executionId}`, 'executionId');
      const bytes = Buffer.byteLength(a.value, 'utf8');
      const vm = actor?.role === 'vm';
      // "The VM never holds full binding values": a value the VM binds itself, other than an input, is small.
      if (vm && a.kind !== 'input' && bytes > decisions.attachmentThresholdBytes) {
        fail(
          'E_ROLE',
          `the VM may not bind ${a.kind} ${a.name} itself: ${bytes} bytes is over the attachment threshold`,
          'actor',
        );
      }
      const key = bindingKey(a.name, executionId);
      const existing = run.bindings[key]?.kind;
      if (existing === 'const') {
        fail(
          'E_CONST_REBIND',
          `const ${a.name} is already bound${executionId === null ? '' : ` in execution_id ${executionId}`}`,
        );
      }
      // "The VM does not write subagent outputs": it never replaces a stored binding other than an input.
      if (vm && existing !== undefined && !(existing === 'input' && a.kind === 'input')) {
        fail(
          'E_ROLE',
          `the VM may not overwrite ${existing} ${a.name}: the VM never writes over a subagent's output`,
          'actor',
        );
      }
      const attach = caps.has('attachments') && bytes > decisions.attachmentThresholdBytes;
      const record = {
        name: a.name,
        kind: a.kind,
        executionId,
        ...(a.source !== undefined ? { source: a.source } : {}),
      };
      if (attach) record.attachment = `attachments/${bindingFile(a.name, executionId)}`;
      else record.value = a.value;
      run.bindings[key] = record;
      const location = layout.writeBinding(a.run, record, a.value);
      return { name: a.name, executionId, attached: attach, location };
    },
    resolve(a) {
      checkName('binding', a.name, 'name');
      const run = runOf(a.run);
      for (const id of scopeChain(stateOf(a.run), a.executionId ?? null)) {
        const b = run.bindings[bindingKey(a.name, id)];
        if (b)
          return {
            name: b.name,
            kind: b.kind,
            value: valueOf(a.run, b),
            executionId: b.executionId,
            attached: !!b.attachment,
            ...(b.source ? { source: b.source } : {}),
          };
      }
      return fail(
        'E_NOT_FOUND',
        `no binding ${a.name} visible from ${a.executionId == null ? 'root' : `execution_id ${a.executionId}`}`,
      );
    },
    listBindings(a) {
      return { bindings: Object.values(runOf(a.run).bindings).map(summary).sort(byNameThenScope) };
    },
    writeMemory(a) {
      const loc = agentLoc(a);
      store.agent(loc, true).memory = a.memory;
      return { location: layout.writeMemory(loc, a.memory) };
    },
    readMemory(a) {
      const memory = store.agent(agentLoc(a), false)?.memory;
      if (memory == null) fail('E_NOT_FOUND', `agent ${a.agent} has no ${a.scope} memory yet`);
      return { memory };
    },
    appendSegment(a) {
      const loc = agentLoc(a);
      // The timestamp becomes a header line of the segment file: only ISO 8601 (a newline could forge a header).
      if (a.timestamp !== undefined && !isInstant(a.timestamp))
        fail('E_INVALID_ARGUMENT', `timestamp ${JSON.stringify(a.timestamp)} is not ISO 8601`, 'timestamp');
      const agent = store.agent(loc, true);
      const number = agent.segments.length + 1;
      const file = `${a.agent}-${pad(number, decisions.segmentWidth)}.md`;
      const segment = {
        number,
        file,
        timestamp: a.timestamp ?? isoSeconds(now()),
        prompt: a.prompt,
        summary: a.summary,
      };
      agent.segments.push(segment);
      layout.writeSegment(loc, segment, decisions.segmentWidth);
      return { number, file };
    },
    listSegments(a) {
      return { segments: (store.agent(agentLoc(a), false)?.segments ?? []).map((s) => ({ ...s })) };
    },
    resume(a) {
      const run = runOf(a.run);
      const bindings = Object.values(run.bindings).map(summary).sort(byNameThenScope);
      return toResumeState(a.run, run.status, stateOf(a.run), bindings);
    },
  };

  return {
    async call(op, args, actor) {
      if (!Object.prototype.hasOwnProperty.call(OPS, op))
        fail('E_UNSUPPORTED', `unknown operation ${JSON.stringify(op)}`);
      const need = OPS[op].capability;
      if (need && !caps.has(need))
        fail('E_UNSUPPORTED', `${op} needs the ${need} capability, which this backend does not declare`);
      checkArgs(op, args);
      checkRole(op, args, actor);
      // Other processes may write the same storage: every call reads the committed state under the lock. A refused
      // call writes nothing: the handler works on the loaded state and only a success is committed.
      return withLock(store.dir, () => {
        store.reload();
        const result = (handlers[op] ?? worldModel[op])(args, actor);
        if (WRITES.has(op)) {
          store.commit();
          // state.md is the VM's view of the run: rewrite it for the run this call touched (and a new import).
          for (const ref of new Set([args.run, result.run]))
            if (typeof ref === 'string' && store.run(ref)) refreshState(ref);
        }
        return result;
      });
    },
    storage() {
      return { kind: 'directory', projectDir: env.projectDir, homeDir: env.homeDir };
    },
    async close() {},
  };
}
