// The run's execution log: events are appended by the VM, and the state (frames, loops, parallels, retries,
// anonymous names) is folded from them, so a restart rebuilds exactly the same state.
import { fail } from './errors.js';

export function foldEvents(events) {
  const state = {
    frames: new Map(),
    parallels: {},
    loops: {},
    retries: {},
    errors: [],
    statements: new Map(),
    last: null,
    nextExecutionId: 1,
    anonCount: 0,
  };
  for (const e of events) applyEvent(state, e);
  return state;
}

// Where a resume continues: the statement still executing that was recorded last, else the last one recorded.
function positionOf(state) {
  const executing = [...state.statements.values()].filter((s) => s.status === 'executing');
  return executing.length ? executing[executing.length - 1] : state.last;
}

const no = (code, message) => fail(code, message, 'event');

// Whether `event` may follow `state`: the rules of prose-state's decisions (execution events).
export function checkEvent(state, event) {
  switch (event.type) {
    case 'frame-exit': {
      const f = state.frames.get(event.executionId);
      if (!f) no('E_STATE', `no frame with execution_id ${event.executionId}`);
      if (f.status !== 'executing') no('E_STATE', `frame ${event.executionId} already exited`);
      return;
    }
    case 'parallel-start':
      if (state.parallels[event.id]) no('E_CONFLICT', `parallel ${event.id} already started`);
      if (event.branches.length === 0) no('E_STATE', `parallel ${event.id} has no branches`);
      if (new Set(event.branches).size !== event.branches.length)
        no('E_STATE', `parallel ${event.id} names a branch twice`);
      if (event.count !== undefined && event.count < 1)
        no('E_STATE', `count ${event.count} can never be met; it must be at least 1`);
      if (event.count !== undefined && event.count > event.branches.length)
        no('E_STATE', `count ${event.count} is more than the ${event.branches.length} branches`);
      return;
    case 'branch': {
      const p = parallelOf(state, event.id);
      if (p.joined) no('E_STATE', `parallel ${event.id} already joined`);
      if (!(event.branch in p.branches)) no('E_STATE', `parallel ${event.id} has no branch ${event.branch}`);
      const cur = p.branches[event.branch];
      if (cur === 'completed' || cur === 'failed')
        no('E_STATE', `branch ${event.branch} of ${event.id} already ${cur}`);
      return;
    }
    case 'parallel-join': {
      const p = parallelOf(state, event.id);
      if (p.joined) no('E_STATE', `parallel ${event.id} already joined`);
      const pending = joinBlockers(p);
      if (pending.length) no('E_STATE', `parallel ${event.id} cannot join yet: waiting for ${pending.join(', ')}`);
      return;
    }
    case 'loop-start':
      if (state.loops[event.id] && !state.loops[event.id].exited) no('E_CONFLICT', `loop ${event.id} already running`);
      if (event.max !== undefined && event.max < 1) no('E_STATE', `loop max must be at least 1, got ${event.max}`);
      return;
    case 'loop-iteration': {
      const l = loopOf(state, event.id);
      if (l.exited) no('E_STATE', `loop ${event.id} already exited`);
      if (l.max !== undefined && event.iteration > l.max)
        no('E_LOOP_MAX', `iteration ${event.iteration} of loop ${event.id} is past max ${l.max}`);
      if (event.iteration !== l.iteration + 1)
        no(
          'E_STATE',
          `loop ${event.id} is at iteration ${l.iteration}; the next is ${l.iteration + 1}, not ${event.iteration}`,
        );
      return;
    }
    case 'loop-exit':
      if (loopOf(state, event.id).exited) no('E_STATE', `loop ${event.id} already exited`);
      return;
    case 'retry': {
      const prev = state.retries[String(event.index)]?.attempt ?? 0;
      if (event.attempt > event.max) no('E_RETRY_MAX', `retry attempt ${event.attempt} is past max ${event.max}`);
      if (event.attempt !== prev + 1)
        no('E_STATE', `statement ${event.index} is at retry ${prev}; the next is ${prev + 1}, not ${event.attempt}`);
      return;
    }
    default:
      return;
  }
}

// Branches a join still waits for: `all` waits for every branch; `first`/`any` for `count` completed ones.
export function joinBlockers(p) {
  const names = Object.keys(p.branches);
  const open = names.filter((b) => p.branches[b] === 'pending' || p.branches[b] === 'executing');
  if (p.strategy === 'all') return open;
  const done = names.filter((b) => p.branches[b] === 'completed').length;
  return done >= (p.count ?? 1) || open.length === 0 ? [] : open;
}

function applyEvent(state, e) {
  switch (e.type) {
    case 'statement': {
      // Re-inserting keeps the map in the order statements were last recorded.
      state.last = { index: e.index, text: e.text, status: e.status };
      state.statements.delete(e.index);
      state.statements.set(e.index, state.last);
      return;
    }
    case 'frame-enter':
      state.frames.set(e.executionId, {
        executionId: e.executionId,
        block: e.block,
        parent: e.parent,
        depth: e.depth,
        status: 'executing',
      });
      state.nextExecutionId = Math.max(state.nextExecutionId, e.executionId + 1);
      return;
    case 'frame-exit': {
      const f = state.frames.get(e.executionId);
      if (f) f.status = e.status;
      return;
    }
    case 'parallel-start':
      state.parallels[e.id] = {
        strategy: e.strategy,
        branches: Object.fromEntries(e.branches.map((b) => [b, 'pending'])),
        joined: false,
        ...(e.count !== undefined ? { count: e.count } : {}),
        ...(e.onFail ? { onFail: e.onFail } : {}),
      };
      return;
    case 'branch': {
      const p = state.parallels[e.id];
      if (p) p.branches[e.branch] = e.status;
      return;
    }
    case 'parallel-join': {
      const p = state.parallels[e.id];
      if (p) p.joined = true;
      return;
    }
    case 'loop-start':
      state.loops[e.id] = { iteration: 0, exited: false, ...(e.max !== undefined ? { max: e.max } : {}) };
      return;
    case 'loop-iteration': {
      const l = state.loops[e.id];
      if (l) l.iteration = e.iteration;
      return;
    }
    case 'loop-exit': {
      const l = state.loops[e.id];
      if (l) {
        l.exited = true;
        l.exitReason = e.reason;
      }
      return;
    }
    case 'retry':
      state.retries[String(e.index)] = { attempt: e.attempt, max: e.max };
      return;
    case 'error':
      state.errors.push({ index: e.index, message: e.message });
      return;
    case 'anon':
      state.anonCount += 1;
      return;
  }
}

// Frames to search for a name, innermost first, ending with null (root): the frame's own ancestors only.
export function scopeChain(state, executionId) {
  const chain = [];
  const seen = new Set();
  for (let cur = executionId; cur !== null; cur = state.frames.get(cur).parent) {
    if (!state.frames.has(cur)) fail('E_STATE', `no frame with execution_id ${cur}`, 'executionId');
    if (seen.has(cur)) fail('E_CORRUPT', `frame ${cur} is its own ancestor`);
    seen.add(cur);
    chain.push(cur);
  }
  chain.push(null);
  return chain;
}

export function toResumeState(run, status, state, bindings) {
  // Innermost first: that frame is executing, the frames that invoked it are waiting (the seeds' Call Stack).
  const callStack = [...state.frames.values()]
    .filter((f) => f.status === 'executing')
    .sort((a, b) => b.depth - a.depth || b.executionId - a.executionId)
    .map((f, i) => ({ ...f, status: i === 0 ? 'executing' : 'waiting' }));
  return {
    run,
    status,
    position: positionOf(state),
    bindings,
    callStack,
    parallels: state.parallels,
    loops: state.loops,
    retries: state.retries,
    errors: state.errors,
    nextExecutionId: state.nextExecutionId,
    anonCount: state.anonCount,
  };
}

function parallelOf(state, id) {
  return state.parallels[id] ?? no('E_STATE', `parallel ${id} was not started`);
}

function loopOf(state, id) {
  return state.loops[id] ?? no('E_STATE', `loop ${id} was not started`);
}
