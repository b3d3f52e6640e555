#!/usr/bin/env node
// A stdio plugin that misbehaves on purpose, so specs can prove the harness reports each failure (bowtie's idea).
// MISBEHAVE=<mode> picks the fault; MISBEHAVE_ON=<hello|open|close|op name> picks when (default: every call).
// A call whose args hold a string "misbehave:<mode>" misbehaves that way on that call only.
// Modes: crash, hang, garble, wrong-seq, slow (MISBEHAVE_MS, default 300), schema, exit-at-once, wrong-version,
// bad-capability, refuse-hello, hang-close, noisy-stderr, wrong-type, partial-line.
// MISBEHAVE_KIND sets the declared kind; MISBEHAVE=flip-caps declares other capabilities from the second process on
// (MISBEHAVE_FILE remembers the first).
// Otherwise it is a tiny in-memory backend: createRun, getRun, bind, resolve; other ops answer E_UNSUPPORTED.
// Its default declaration, durable while it keeps state in memory per process, is a contradicted claim on purpose
// (the capability probes must report it: spec/conformance/claims-exit-code.spec.ts).
import { existsSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const MODE = process.env.MISBEHAVE ?? '';
const ON = process.env.MISBEHAVE_ON ?? '';
let CAPS = (process.env.MISBEHAVE_CAPS ?? 'durable').split(',').filter(Boolean);
const KIND = process.env.MISBEHAVE_KIND ?? 'other';
const runs = new Map();
const bindings = new Map();

if (MODE === 'flip-caps') {
  if (existsSync(process.env.MISBEHAVE_FILE)) CAPS = [...CAPS, 'imports'];
  else writeFileSync(process.env.MISBEHAVE_FILE, 'started once');
}

if (MODE === 'exit-at-once') {
  process.stderr.write('misbehaving-plugin: exiting at once as told\n');
  process.exit(4);
}

const send = (msg) => process.stdout.write(`${JSON.stringify(msg)}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function modeFor(msg) {
  const fromArgs =
    msg.type === 'call' &&
    Object.values(msg.args ?? {}).find((v) => typeof v === 'string' && v.startsWith('misbehave:'));
  if (fromArgs) return fromArgs.slice('misbehave:'.length);
  if (!MODE) return '';
  const when = msg.type === 'call' ? msg.op : msg.type;
  if (ON ? ON === when : msg.type === 'call') return MODE;
  return '';
}

function answer(msg) {
  switch (msg.type) {
    case 'hello':
      return { type: 'hello', seq: msg.seq, protocol: 1, name: 'misbehaving', kind: KIND, capabilities: CAPS };
    case 'open':
    case 'close':
      return { type: 'result', seq: msg.seq, result: {} };
    case 'call':
      try {
        return { type: 'result', seq: msg.seq, result: call(msg.op, msg.args) };
      } catch (e) {
        return { type: 'error', seq: msg.seq, code: e.code ?? 'E_BACKEND', message: e.message };
      }
  }
  return { type: 'error', seq: msg.seq ?? 0, code: 'E_BACKEND', message: `unknown message ${msg.type}` };
}

function call(op, a) {
  const err = (code, message) => Object.assign(new Error(message), { code });
  switch (op) {
    case 'createRun': {
      const runId = a.runId ?? `20260101-000000-${String(runs.size).padStart(6, '0')}`;
      runs.set(runId, { runId, status: 'running', program: a.program });
      return { runId, run: runId };
    }
    case 'getRun':
      if (!runs.has(a.run)) throw err('E_NOT_FOUND', `no run ${a.run}`);
      return runs.get(a.run);
    case 'bind':
      bindings.set(`${a.run}/${a.name}`, {
        name: a.name,
        kind: a.kind,
        value: a.value,
        executionId: null,
        attached: false,
      });
      return { name: a.name, executionId: null, attached: false, location: `bindings/${a.name}.md` };
    case 'resolve': {
      const b = bindings.get(`${a.run}/${a.name}`);
      if (!b) throw err('E_NOT_FOUND', `no binding ${a.name}`);
      return b;
    }
    default:
      throw err('E_UNSUPPORTED', `misbehaving-plugin does not implement ${op}`);
  }
}

async function handle(msg) {
  const mode = modeFor(msg);
  const reply = answer(msg);
  switch (mode) {
    case '':
    case 'flip-caps':
      return send(reply);
    case 'crash':
      process.stderr.write(`misbehaving-plugin: crashing on ${msg.op ?? msg.type} as told\n`);
      process.exit(3);
      break;
    case 'hang':
    case 'hang-close':
      return;
    case 'garble':
      return process.stdout.write('this is not json {\n');
    case 'partial-line':
      return process.stdout.write('{"type":"result"');
    case 'wrong-seq':
      return send({ ...reply, seq: reply.seq + 100 });
    case 'slow':
      await sleep(Number(process.env.MISBEHAVE_MS ?? 300));
      return send(reply);
    case 'schema':
      return send({ ...reply, surprise: true });
    case 'wrong-type':
      return send({ ...answer({ ...msg, type: 'hello' }) });
    case 'wrong-version':
      return send({ ...reply, protocol: 99 });
    case 'bad-capability':
      return send({ ...reply, capabilities: ['telepathy'] });
    case 'refuse-hello':
      return send({
        type: 'error',
        seq: msg.seq,
        code: 'E_UNSUPPORTED',
        message: 'this plugin speaks protocol 2 only',
      });
    case 'noisy-stderr':
      for (let i = 0; i < 2000; i++) process.stderr.write(`noise line ${i}\n`);
      return send(reply);
    default:
      process.stderr.write(`misbehaving-plugin: unknown mode ${mode}\n`);
      return send(reply);
  }
}

// One request at a time, in order, as the reference plugin does.
let queue = Promise.resolve();
createInterface({ input: process.stdin })
  .on('line', (line) => {
    queue = queue.then(() => handle(JSON.parse(line)));
  })
  .on('close', () => queue.then(() => process.exit(0)));
