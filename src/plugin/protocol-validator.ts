import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { excerpt } from './plugin-error.ts';
import { buildProtocolSchema } from './protocol-schema.ts';

/** A schema failure, named by field and rule, ready for a message. */
export interface SchemaFailure {
  field: string;
  rule: string;
}

export interface ProtocolValidator {
  /** A harness -> plugin message, or undefined when it is valid. */
  request(message: unknown): SchemaFailure | undefined;
  /** A plugin -> harness message, or undefined when it is valid. */
  reply(message: unknown): SchemaFailure | undefined;
}

let compiled: ProtocolValidator | undefined;

/**
 * Compiles the protocol schema once per process. It is built in memory from the vocabulary rather than read from
 * conformance/schema/protocol.schema.json (src/ may not reach outside itself, and the single binary has no such
 * file); a spec proves the committed file is byte for byte the same schema. Compiling is the slow part; the
 * validators are pure functions afterwards, so sharing them between specs shares no mutable state.
 */
export function protocolValidator(): ProtocolValidator {
  if (compiled) return compiled;
  const ajv = new Ajv({ allErrors: false, discriminator: true, verbose: true });
  const schema = buildProtocolSchema();
  ajv.addSchema(schema);
  const get = (def: string): ValidateFunction => {
    const fn = ajv.getSchema(`${String(schema.$id)}#/$defs/${def}`);
    if (!fn) throw new Error(`protocol schema has no $defs/${def}`);
    return fn;
  };
  const req = get('request');
  const rep = get('reply');
  compiled = { request: (m) => check(req, m), reply: (m) => check(rep, m) };
  return compiled;
}

function check(fn: ValidateFunction, message: unknown): SchemaFailure | undefined {
  if (fn(message)) return undefined;
  return describe(fn.errors?.[0]);
}

function describe(e: ErrorObject | undefined): SchemaFailure {
  if (!e) return { field: '(message)', rule: 'does not match the protocol schema' };
  const base = e.instancePath.replace(/^\//, '').replace(/\//g, '.') || '(message)';
  const p = e.params as Record<string, unknown>;
  const got = ` (got ${excerpt(JSON.stringify(e.data) ?? 'undefined')})`;
  switch (e.keyword) {
    case 'required':
      return {
        field: base === '(message)' ? String(p.missingProperty) : `${base}.${String(p.missingProperty)}`,
        rule: 'is required',
      };
    case 'additionalProperties':
      return {
        field: base === '(message)' ? String(p.additionalProperty) : `${base}.${String(p.additionalProperty)}`,
        rule: 'is not a field of this message',
      };
    case 'enum':
      return {
        field: base,
        rule: `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}${got}`,
      };
    case 'const':
      return { field: base, rule: `must be ${JSON.stringify(p.allowedValue)}${got}` };
    case 'discriminator':
      return { field: 'type', rule: 'must be a known message type' };
    default:
      return { field: base, rule: `${e.message ?? e.keyword}${got}` };
  }
}
