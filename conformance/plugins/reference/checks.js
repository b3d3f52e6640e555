// Argument, name and role checks: the same rules as prose-state's engine, written out plainly.
import { fail } from './errors.js';

const opt = (type) => ({ type, optional: true });
const run = { type: 'string' };
const agentLoc = { agent: { type: 'string' }, scope: { type: 'scope' }, run: opt('string'), path: opt('string') };

// The operation vocabulary: who may call each one, its arguments, and a capability it needs.
export const OPS = {
  createRun: { writer: 'vm', args: { runId: opt('string'), program: { type: 'string' }, programPath: opt('string') } },
  getRun: { writer: 'reader', args: { run } },
  setRunStatus: { writer: 'vm', args: { run, status: { type: 'status' } } },
  createImport: {
    writer: 'vm',
    args: { run, handle: { type: 'string' }, slug: { type: 'string' }, program: { type: 'string' } },
    capability: 'imports',
  },
  enterFrame: {
    writer: 'vm',
    args: { run, block: { type: 'string' }, parent: opt('int|null'), maxDepth: opt('int'), args: opt('object') },
  },
  exitFrame: { writer: 'vm', args: { run, executionId: { type: 'int' }, status: opt('string') } },
  recordEvent: { writer: 'vm', args: { run, event: { type: 'object' } } },
  allocateAnon: { writer: 'vm', args: { run } },
  bind: {
    writer: 'subagent',
    args: {
      run,
      name: { type: 'string' },
      kind: { type: 'kind' },
      value: { type: 'string' },
      executionId: opt('int|null'),
      source: opt('string'),
    },
  },
  resolve: { writer: 'reader', args: { run, name: { type: 'string' }, executionId: opt('int|null') } },
  listBindings: { writer: 'reader', args: { run } },
  writeMemory: { writer: 'agent', args: { ...agentLoc, memory: { type: 'string' } } },
  readMemory: { writer: 'reader', args: agentLoc },
  appendSegment: {
    writer: 'agent',
    args: { ...agentLoc, prompt: { type: 'string' }, summary: { type: 'string' }, timestamp: opt('string') },
  },
  listSegments: { writer: 'reader', args: agentLoc },
  resume: { writer: 'reader', args: { run } },
  writeEnvelope: {
    writer: 'vm',
    args: { run, compiledIntent: { type: 'object' }, rootSource: { type: 'string' }, sources: opt('object') },
    capability: 'world-model',
  },
  readEnvelope: { writer: 'reader', args: { run }, capability: 'world-model' },
  commitWorldModel: {
    writer: 'vm',
    capability: 'world-model',
    args: {
      run,
      node: { type: 'string' },
      files: { type: 'object' },
      contract: { type: 'string' },
      facets: opt('string[]'),
      wake: opt('object'),
      inputFingerprints: opt('string[]'),
      tokens: opt('object'),
      provider: opt('string'),
      model: opt('string'),
      // Read only under decision semantic-diff's render-supplied reading, which this plugin does not follow.
      semanticDiff: opt('object'),
    },
  },
  failRender: {
    writer: 'vm',
    capability: 'world-model',
    args: {
      run,
      node: { type: 'string' },
      contract: { type: 'string' },
      reason: { type: 'string' },
      wake: opt('object'),
      inputFingerprints: opt('string[]'),
    },
  },
  readPublished: { writer: 'reader', capability: 'world-model', args: { run, node: { type: 'string' } } },
  readVersion: {
    writer: 'reader',
    capability: 'world-model',
    args: { run, node: { type: 'string' }, version: { type: 'string' } },
  },
  listReceipts: { writer: 'reader', capability: 'receipts', args: { run, node: opt('string') } },
  // A node's private workspace: the VM or the subagent rendering it may write it.
  writeWorkspace: {
    writer: 'any',
    capability: 'world-model',
    args: { run, node: { type: 'string' }, files: { type: 'object' } },
  },
};

const ENUMS = {
  kind: ['input', 'output', 'let', 'const'],
  scope: ['execution', 'project', 'user', 'custom'],
  status: ['running', 'completed', 'failed', 'interrupted'],
};

function typeOk(type, v) {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'int':
      return Number.isSafeInteger(v);
    case 'int|null':
      return v === null || Number.isSafeInteger(v);
    case 'object':
      return !!v && typeof v === 'object' && !Array.isArray(v);
    case 'string[]':
      return Array.isArray(v) && v.every((x) => typeof x === 'string');
    default:
      return ENUMS[type].includes(v);
  }
}

export function checkArgs(op, args) {
  if (!args || typeof args !== 'object' || Array.isArray(args))
    fail('E_INVALID_ARGUMENT', `${op} takes an object of arguments`, 'args');
  const spec = OPS[op].args;
  for (const key of Object.keys(args)) {
    if (!(key in spec))
      fail('E_INVALID_ARGUMENT', `${op} has no argument "${key}"; it takes ${Object.keys(spec).join(', ')}`, key);
  }
  for (const [key, { type, optional }] of Object.entries(spec)) {
    if (args[key] === undefined) {
      if (!optional) fail('E_INVALID_ARGUMENT', `${op} needs argument "${key}"`, key);
    } else if (!typeOk(type, args[key])) {
      fail(
        'E_INVALID_ARGUMENT',
        `"${key}" must be ${ENUMS[type] ? `one of ${ENUMS[type].join(', ')}` : type === 'string[]' ? 'a list of strings' : `a ${type}`}, got ${JSON.stringify(args[key])}`,
        key,
      );
    }
  }
  if (op === 'recordEvent') checkEventShape(args.event);
  checkWellFormed(args, 'args');
  return args;
}

// Names are checked by checkName (E_INVALID_NAME); any other text must be well-formed Unicode, or it cannot be
// stored as UTF-8 and read back.
const NAME_ARGS = new Set(['name', 'agent', 'handle', 'slug', 'node', 'block']);

function checkWellFormed(value, field) {
  if (typeof value === 'string') {
    if (!value.isWellFormed())
      fail('E_INVALID_ARGUMENT', `${field} holds a lone UTF-16 surrogate, which no backend can store`, field);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => checkWellFormed(v, `${field}[${i}]`));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (!k.isWellFormed()) fail('E_INVALID_ARGUMENT', `${field} has a key holding a lone UTF-16 surrogate`, field);
      if (field === 'args' && NAME_ARGS.has(k)) continue;
      checkWellFormed(v, field === 'args' ? k : `${field}.${k}`);
    }
  }
}

// Every event type with its fields; `?` marks an optional one, a list is an enum.
const EVENT_FIELDS = {
  statement: {
    index: 'int',
    text: 'string',
    status: ['executing', 'completed', 'failed', 'skipped'],
    executionId: 'int|null?',
    error: 'string?',
  },
  'frame-enter': { executionId: 'int', block: 'string', parent: 'int|null', depth: 'int', args: 'object?' },
  'frame-exit': { executionId: 'int', status: ['completed', 'failed'] },
  'parallel-start': {
    id: 'string',
    strategy: ['all', 'first', 'any'],
    branches: 'string[]',
    count: 'int?',
    onFail: ['fail-fast', 'continue', 'ignore', '?'],
  },
  branch: { id: 'string', branch: 'string', status: ['executing', 'completed', 'failed'] },
  'parallel-join': { id: 'string' },
  'loop-start': { id: 'string', max: 'int?', condition: 'string?' },
  'loop-iteration': { id: 'string', iteration: 'int' },
  'loop-exit': { id: 'string', reason: ['condition', 'max', 'break'] },
  retry: { index: 'int', attempt: 'int', max: 'int', error: 'string?' },
  error: { index: 'int', message: 'string' },
  anon: { name: 'string' },
};

export function checkEventShape(e) {
  const bad = (field, message) => fail('E_INVALID_ARGUMENT', message, `event.${field}`);
  const fields = EVENT_FIELDS[e?.type];
  if (!fields)
    bad('type', `event type must be one of ${Object.keys(EVENT_FIELDS).join(', ')}, got ${JSON.stringify(e?.type)}`);
  for (const key of Object.keys(e))
    if (key !== 'type' && !(key in fields)) bad(key, `a ${e.type} event has no field "${key}"`);
  for (const [key, spec] of Object.entries(fields)) {
    const v = e[key];
    const optional = Array.isArray(spec) ? spec.includes('?') : spec.endsWith('?');
    if (v === undefined) {
      if (!optional) bad(key, `a ${e.type} event needs "${key}"`);
      continue;
    }
    if (Array.isArray(spec)) {
      if (!spec.includes(v) || v === '?')
        bad(key, `"${key}" must be one of ${spec.filter((s) => s !== '?').join(', ')}, got ${JSON.stringify(v)}`);
    } else if (spec === 'string[]') {
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) bad(key, `"${key}" must be a list of strings`);
    } else if (!typeOk(spec.replace(/\?$/, ''), v)) {
      bad(key, `"${key}" must be a ${spec.replace(/\?$/, '')}, got ${JSON.stringify(v)}`);
    }
  }
  if (typeof e.index === 'number' && e.index < 0) bad('index', 'statement index must not be negative');
  return e;
}

// Windows also reserves COM¹-COM³ and LPT¹-LPT³ written with superscript digits.
const WINDOWS_DEVICE =
  /^(con|prn|aux|nul|com[0-9\u00B9\u00B2\u00B3]|lpt[0-9\u00B9\u00B2\u00B3]|conin\$|conout\$)(\..*)?$/i;
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;
// eslint-disable-next-line no-control-regex
// Unicode Cc (C0, DEL, C1) and the line and paragraph separators: a line break inside a heading.
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;

// Names become file names in the seed layout, so the same names are refused here (decision `names`).
export function checkName(kind, name, field = kind) {
  const no = (why) => fail('E_INVALID_NAME', `${kind} name ${JSON.stringify(name)} ${why}`, field);
  if (typeof name !== 'string') no('is not a string');
  if (name.length === 0) no('is empty');
  if (name.includes('/') || name.includes('\\')) no('contains a path separator');
  if (name.includes('..')) no('contains ".."');
  if (name.startsWith('.')) no('starts with "."');
  if (CONTROL.test(name)) no('contains a control character');
  if (BIDI.test(name)) no('contains a bidirectional control character');
  if (!name.isWellFormed()) no('contains a lone surrogate');
  if (name !== name.normalize('NFC')) no('is not in Unicode NFC form');
  if (name.trim() !== name) no('has leading or trailing white space');
  if (WINDOWS_DEVICE.test(name)) no('is a reserved device name on Windows');
  // These kinds become file names as they are: no NTFS stream or drive colon, no trailing dot Windows would drop.
  if (['binding', 'agent', 'handle', 'slug'].includes(kind) && name.includes(':')) no('contains ":"');
  if (['binding', 'agent', 'handle', 'slug'].includes(kind) && name.endsWith('.')) no('ends in "."');
  if (Buffer.byteLength(name, 'utf8') > 200) no('is longer than 200 bytes of UTF-8');
  if (kind === 'binding' && /__\d+$/.test(name)) no('ends in "__" and digits');
  // {handle}--{slug} must split one way only: "a-" + "-b" and "a" + "--b" would both be a----b.
  if (kind === 'handle' && (name.includes('--') || name.endsWith('-'))) no('contains "--" or ends in "-"');
  return name;
}

// Who writes what: execution state is the VM's; a subagent writes its own binding and its own agent's memory.
export function checkRole(op, a, actor) {
  const writer = OPS[op].writer;
  if (writer === 'reader' || writer === 'any') return;
  const who =
    actor?.role === 'vm'
      ? 'the VM'
      : `subagent (${[actor?.binding && `binding ${actor.binding}`, actor?.agent && `agent ${actor.agent}`].filter(Boolean).join(', ') || 'unnamed'})`;
  const deny = (why) => fail('E_ROLE', `${who} may not call ${op}: ${why}`, 'actor');
  if (writer === 'vm') {
    if (actor?.role !== 'vm') deny('only the VM writes execution state');
    return;
  }
  if (writer === 'subagent') {
    // The VM binds values itself too (inputs, a caught error, a literal const); backend.js refuses a large value
    // and any overwrite of a stored binding other than an input.
    if (actor.role === 'vm') return;
    if (actor.binding !== a.name)
      deny(`a subagent writes only its own binding (${JSON.stringify(actor.binding ?? null)})`);
    if ((actor.executionId ?? null) !== (a.executionId ?? null))
      deny(`a subagent writes only in its own execution scope (${actor.executionId ?? 'root'})`);
    return;
  }
  if (actor.role === 'vm') deny('memory and segments are written by the persistent agent itself');
  if (actor.agent !== a.agent)
    deny(`a subagent writes only its own agent's memory (${JSON.stringify(actor.agent ?? null)})`);
}

const RUN_ID = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-([0-9a-f]{6})$/;

export function checkRunId(value) {
  const m = typeof value === 'string' && RUN_ID.exec(value);
  const [, y, mo, d, h, mi, s] = m ? m.map(Number) : [];
  const t = m && new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  const real =
    t &&
    t.getUTCFullYear() === y &&
    t.getUTCMonth() === mo - 1 &&
    t.getUTCDate() === d &&
    t.getUTCHours() === h &&
    t.getUTCMinutes() === mi &&
    t.getUTCSeconds() === s;
  if (!real)
    fail('E_INVALID_ARGUMENT', `run id ${JSON.stringify(value)} is not {YYYYMMDD}-{HHMMSS}-{random6}`, 'runId');
  return value;
}

export function newRunId(now = new Date()) {
  const p = (n) => String(n).padStart(2, '0');
  const hex = Array.from({ length: 6 }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  return `${now.getUTCFullYear()}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}-${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}-${hex}`;
}

export function checkCustomPath(path) {
  if (typeof path !== 'string' || path.length === 0) fail('E_INVALID_ARGUMENT', 'custom scope needs "path"', 'path');
  const segs = path.split(/[\\/]/).filter((x) => x !== '' && x !== '.');
  // .prose/ is the seed state; .prose-reference/ is where this plugin keeps its own.
  if (segs[0] === '.prose' || segs[0] === '.prose-reference')
    fail(
      'E_INVALID_NAME',
      `custom agent path ${JSON.stringify(path)} points into ${segs[0]}/, where the backend keeps its own state`,
      'path',
    );
  if (
    path.startsWith('/') ||
    path.startsWith('\\') ||
    /^[A-Za-z]:/.test(path) ||
    segs.includes('..') ||
    /[\u0000-\u001f]/.test(path)
  ) {
    fail(
      'E_INVALID_NAME',
      `custom agent path ${JSON.stringify(path)} must be relative to the project and may not contain ".."`,
      'path',
    );
  }
}

export const isoSeconds = (d) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
