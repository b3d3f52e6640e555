import { ProseError } from './errors.ts';
import { AGENT_SCOPES, BINDING_KINDS, RUN_STATUSES, type ExecutionEvent } from './model.ts';
import { OPS, type ArgType, type OpArgs, type OpName } from './ops.ts';

const bad = (field: string, message: string): never => {
  throw new ProseError('E_INVALID_ARGUMENT', message, { location: { field } });
};

/** Checks an operation's arguments against the vocabulary: unknown keys are refused by name, types are checked. */
export function checkArgs<K extends OpName>(op: K, args: unknown): OpArgs[K] {
  if (!args || typeof args !== 'object' || Array.isArray(args)) bad('args', `${op} takes an object of arguments`);
  const spec = OPS[op].args;
  const obj = args as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!(key in spec)) bad(key, `${op} has no argument "${key}"; it takes ${Object.keys(spec).join(', ')}`);
  }
  for (const [key, { type, optional }] of Object.entries(spec)) {
    const value = obj[key];
    if (value === undefined) {
      if (!optional) bad(key, `${op} needs argument "${key}"`);
      continue;
    }
    checkType(key, type, value);
  }
  if (op === 'recordEvent') checkEventShape(obj.event);
  checkWellFormed(obj, 'args');
  return obj as OpArgs[K];
}

/**
 * Text must be well-formed Unicode: a lone surrogate has no UTF-8 form, so a file or a TEXT column would turn it
 * into U+FFFD and the value would not read back (decision `well-formed-text`).
 */
const NAME_ARGS = new Set(['name', 'agent', 'handle', 'slug', 'node', 'block']);

function checkWellFormed(value: unknown, field: string): void {
  if (typeof value === 'string') {
    if (!value.isWellFormed()) bad(field, `${field} holds a lone UTF-16 surrogate, which no backend can store`);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => checkWellFormed(v, `${field}[${i}]`));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (!k.isWellFormed()) bad(field, `${field} has a key holding a lone UTF-16 surrogate`);
      // Names are checked by checkName, which answers E_INVALID_NAME for a lone surrogate as for any bad name.
      if (field === 'args' && NAME_ARGS.has(k)) continue;
      checkWellFormed(v, field === 'args' ? k : `${field}.${k}`);
    }
  }
}

function checkType(field: string, type: ArgType, value: unknown): void {
  const ok = (() => {
    switch (type) {
      case 'string':
        return typeof value === 'string';
      case 'int':
        return Number.isSafeInteger(value);
      case 'int|null':
        return value === null || Number.isSafeInteger(value);
      case 'object':
        return !!value && typeof value === 'object' && !Array.isArray(value);
      case 'event':
        return !!value && typeof value === 'object' && !Array.isArray(value);
      case 'string[]':
        return Array.isArray(value) && value.every((v) => typeof v === 'string');
      case 'kind':
        return (BINDING_KINDS as readonly unknown[]).includes(value);
      case 'scope':
        return (AGENT_SCOPES as readonly unknown[]).includes(value);
      case 'status':
        return (RUN_STATUSES as readonly unknown[]).includes(value);
    }
  })();
  if (!ok) bad(field, `"${field}" must be ${describeType(type)}, got ${JSON.stringify(value)}`);
}

function describeType(type: ArgType): string {
  switch (type) {
    case 'kind':
      return `one of ${BINDING_KINDS.join(', ')}`;
    case 'scope':
      return `one of ${AGENT_SCOPES.join(', ')}`;
    case 'status':
      return `one of ${RUN_STATUSES.join(', ')}`;
    case 'int|null':
      return 'an integer or null';
    case 'int':
      return 'an integer';
    case 'string[]':
      return 'a list of strings';
    default:
      return `a${type === 'object' || type === 'event' ? 'n' : ''} ${type}`;
  }
}

/** The fields of each event type: a trailing `?` marks an optional one; `enum` takes its values from EVENT_ENUMS. */
export type FieldSpec = Record<string, ArgType | `${ArgType}?` | 'string[]' | 'enum'>;
export const EVENT_FIELDS: Record<ExecutionEvent['type'], FieldSpec> = {
  statement: { index: 'int', text: 'string', status: 'enum', executionId: 'int|null?', error: 'string?' },
  'frame-enter': { executionId: 'int', block: 'string', parent: 'int|null', depth: 'int', args: 'object?' },
  'frame-exit': { executionId: 'int', status: 'enum' },
  'parallel-start': { id: 'string', strategy: 'enum', branches: 'string[]', count: 'int?', onFail: 'enum' },
  branch: { id: 'string', branch: 'string', status: 'enum' },
  'parallel-join': { id: 'string' },
  'loop-start': { id: 'string', max: 'int?', condition: 'string?' },
  'loop-iteration': { id: 'string', iteration: 'int' },
  'loop-exit': { id: 'string', reason: 'enum' },
  retry: { index: 'int', attempt: 'int', max: 'int', error: 'string?' },
  error: { index: 'int', message: 'string' },
  anon: { name: 'string' },
};
export const EVENT_ENUMS: Record<string, Record<string, readonly string[]>> = {
  statement: { status: ['executing', 'completed', 'failed', 'skipped'] },
  'frame-exit': { status: ['completed', 'failed'] },
  'parallel-start': { strategy: ['all', 'first', 'any'], onFail: ['fail-fast', 'continue', 'ignore'] },
  branch: { status: ['executing', 'completed', 'failed'] },
  'loop-exit': { reason: ['condition', 'max', 'break'] },
};
export const OPTIONAL_ENUMS = new Set(['parallel-start.onFail']);

/** Checks the shape of an execution event; every field path in an error starts with `event.`. */
export function checkEventShape(event: unknown): ExecutionEvent {
  const e = event as Record<string, unknown>;
  const type = e?.type as ExecutionEvent['type'];
  const fields = EVENT_FIELDS[type];
  if (!fields)
    bad('event.type', `event type must be one of ${Object.keys(EVENT_FIELDS).join(', ')}, got ${JSON.stringify(type)}`);
  for (const key of Object.keys(e)) {
    if (key !== 'type' && !(key in fields)) bad(`event.${key}`, `a ${type} event has no field "${key}"`);
  }
  for (const [key, spec] of Object.entries(fields)) {
    const value = e[key];
    const optional = spec.endsWith('?') || OPTIONAL_ENUMS.has(`${type}.${key}`);
    if (value === undefined) {
      if (!optional) bad(`event.${key}`, `a ${type} event needs "${key}"`);
      continue;
    }
    const base = spec.replace(/\?$/, '');
    if (base === 'enum') {
      const allowed = EVENT_ENUMS[type]![key]!;
      if (!allowed.includes(value as string))
        bad(`event.${key}`, `"${key}" must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
    } else if (base === 'string[]') {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
        bad(`event.${key}`, `"${key}" must be a list of strings`);
    } else {
      checkType(`event.${key}`, base as ArgType, value);
    }
  }
  if (typeof e.index === 'number' && e.index < 0) bad('event.index', 'statement index must not be negative');
  return e as unknown as ExecutionEvent;
}
