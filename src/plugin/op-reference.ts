import { EVENT_ENUMS, EVENT_FIELDS, OPTIONAL_ENUMS } from '../core/check-args.ts';
import { AGENT_SCOPES, BINDING_KINDS, RUN_STATUSES } from '../core/model.ts';
import { RESULT_SCHEMAS } from '../core/op-results.ts';
import { OPS, type ArgType, type OpName } from '../core/ops.ts';

/**
 * The operation and event tables of docs/implementing.md, rendered from the vocabulary (OPS, RESULT_SCHEMAS, the
 * event field table), so the guide cannot drift from what the harness sends and checks. The guide holds them
 * between `<!-- generated:NAME -->` markers; scripts/gen-protocol-schema.ts rewrites them and a spec compares.
 */
export const GENERATED_BLOCKS = { ops: renderOpTable, resume: renderResumeFields, events: renderEventTable } as const;

const union = (xs: readonly string[]) => xs.map((x) => `"${x}"`).join(' \\| ');

function argText(type: ArgType): string {
  switch (type) {
    case 'int':
      return 'int';
    case 'int|null':
      return 'int \\| null';
    case 'string[]':
      return 'string[]';
    case 'event':
      return 'Event';
    case 'kind':
      return union(BINDING_KINDS);
    case 'scope':
      return union(AGENT_SCOPES);
    case 'status':
      return union(RUN_STATUSES);
    default:
      return type;
  }
}

type S = { [k: string]: unknown };

function schemaText(s: S): string {
  if (Array.isArray(s.enum)) return union(s.enum as string[]);
  if (Array.isArray(s.anyOf)) return (s.anyOf as S[]).map(schemaText).join(' \\| ');
  switch (s.type) {
    case 'string':
      return 'string';
    case 'integer':
      return 'int';
    case 'boolean':
      return 'bool';
    case 'null':
      return 'null';
    case 'array':
      return `${wrap(schemaText(s.items as S))}[]`;
    case 'object': {
      if (s.properties) {
        const req = new Set(s.required as string[]);
        const entries = Object.entries(s.properties as Record<string, S>);
        return entries.length
          ? `{ ${entries.map(([k, v]) => `${k}${req.has(k) ? '' : '?'}: ${schemaText(v)}`).join(', ')} }`
          : '{}';
      }
      if (s.additionalProperties) return `{ [key]: ${schemaText(s.additionalProperties as S)} }`;
      return 'object';
    }
    default:
      return 'unknown';
  }
}

const wrap = (t: string) => (t.includes('\\|') ? `(${t})` : t);

export function renderOpTable(): string {
  const rows = (Object.keys(OPS) as OpName[]).map((op) => {
    const spec = OPS[op];
    const args = Object.entries(spec.args)
      .map(([k, v]) => `${k}${v.optional ? '?' : ''}: ${argText(v.type)}`)
      .join(', ');
    const who =
      spec.writer === 'reader' || spec.writer === 'any'
        ? 'anyone'
        : spec.writer === 'vm'
          ? 'VM'
          : spec.writer === 'subagent'
            ? 'subagent (VM: input only)'
            : 'the agent';
    const result = op === 'resume' ? 'ResumeState (below)' : schemaText(RESULT_SCHEMAS[op] as S);
    return `| \`${op}\` | ${spec.capability ?? ''} | ${who} | ${args} | ${result} |`;
  });
  return ['| op | needs | written by | arguments | result |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** The fields of resume's result, one line each. */
export function renderResumeFields(): string {
  const r = RESULT_SCHEMAS.resume as unknown as { properties: Record<string, S>; required: string[] };
  return Object.entries(r.properties)
    .map(([k, v]) => `- \`${k}\`${r.required.includes(k) ? '' : ' (optional)'}: ${schemaText(v).replace(/\\\|/g, '|')}`)
    .join('\n');
}

export function renderEventTable(): string {
  const rows = Object.entries(EVENT_FIELDS).map(([type, fields]) => {
    const text = Object.entries(fields)
      .map(([k, spec]) => {
        const base = spec.replace(/\?$/, '');
        const optional = spec.endsWith('?') || OPTIONAL_ENUMS.has(`${type}.${k}`);
        const t = base === 'enum' ? union(EVENT_ENUMS[type]![k]!) : argText(base as ArgType);
        return `${k}${optional ? '?' : ''}: ${t}`;
      })
      .join(', ');
    const via =
      type === 'frame-enter' || type === 'frame-exit'
        ? ' (written by enterFrame/exitFrame, refused by recordEvent)'
        : type === 'anon'
          ? ' (written by allocateAnon, refused by recordEvent)'
          : '';
    return `| \`${type}\`${via} | ${text} |`;
  });
  return ['| type | fields (exactly these; `?` optional) |', '|---|---|', ...rows].join('\n');
}

/** Replaces each generated block of `doc` with its fresh rendering; the text between the markers is ours. */
export function refreshGeneratedBlocks(doc: string): string {
  let out = doc;
  for (const [name, render] of Object.entries(GENERATED_BLOCKS)) {
    const re = new RegExp(`(<!-- generated:${name} -->\\n)[\\s\\S]*?(\\n<!-- /generated:${name} -->)`);
    out = out.replace(re, (_, a: string, b: string) => `${a}${render()}${b}`);
  }
  return out;
}
