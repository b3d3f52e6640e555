import { ProseError } from '../core/errors.ts';

export type Vars = Record<string, unknown>;

const WHOLE = /^\$\{([^}]+)\}$/;
const PART = /\$\{([^}]+)\}/g;
const EXPR = /^\s*([A-Za-z_][\w.]*)\s*(?:([-+*/])\s*(-?\d+))?\s*$/;

/**
 * Fills `${var.path}` templates in a case value. A string that is only a template keeps the value's type
 * (`${r.executionId}` stays a number); `${x + 1}` does integer arithmetic. Two generators build large values
 * without writing them out: `{$repeat: "é", times: N}` and `{$concat: [a, b, ...]}`; `{$slice: [s, start, end]}` takes
 * part of a string (the date digits of a run id).
 */
export function interpolate(value: unknown, vars: Vars): unknown {
  if (typeof value === 'string') return interpolateString(value, vars);
  if (Array.isArray(value)) return value.map((v) => interpolate(v, vars));
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if ('$repeat' in obj) {
      const unit = interpolate(obj.$repeat, vars);
      const times = interpolate(obj.times, vars);
      if (typeof unit !== 'string' || !Number.isSafeInteger(times) || (times as number) < 0) {
        throw new ProseError('E_CASE', '$repeat needs a string and a non-negative whole "times"');
      }
      return unit.repeat(times as number);
    }
    if ('$concat' in obj) {
      const parts = interpolate(obj.$concat, vars);
      if (!Array.isArray(parts)) throw new ProseError('E_CASE', '$concat needs a list');
      return parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join('');
    }
    if ('$slice' in obj) {
      const [text, start, end] = (interpolate(obj.$slice, vars) ?? []) as unknown[];
      if (
        typeof text !== 'string' ||
        !Number.isSafeInteger(start) ||
        (end !== undefined && !Number.isSafeInteger(end))
      ) {
        throw new ProseError(
          'E_CASE',
          '$slice needs [string, start, end?] with whole numbers (code units, as String.slice)',
        );
      }
      return text.slice(start as number, end as number | undefined);
    }
    return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, interpolate(v, vars)]));
  }
  return value;
}

function interpolateString(s: string, vars: Vars): unknown {
  const whole = WHOLE.exec(s);
  if (whole) return evaluate(whole[1]!, vars);
  if (!s.includes('${')) return s;
  return s.replace(PART, (_, expr: string) => {
    const v = evaluate(expr, vars);
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
}

function evaluate(expr: string, vars: Vars): unknown {
  const m = EXPR.exec(expr);
  if (!m)
    throw new ProseError('E_CASE', `cannot read template \${${expr}}`, {
      hint: 'use ${name}, ${name.field} or ${name + 1}',
    });
  const value = lookup(m[1]!, vars);
  if (!m[2]) return value;
  if (typeof value !== 'number') throw new ProseError('E_CASE', `\${${expr}}: ${m[1]} is not a number`);
  const n = Number(m[3]);
  switch (m[2]) {
    case '+':
      return value + n;
    case '-':
      return value - n;
    case '*':
      return value * n;
    default:
      return Math.floor(value / n);
  }
}

function lookup(path: string, vars: Vars): unknown {
  let cur: unknown = vars;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !(part in (cur as object))) {
      throw new ProseError('E_CASE', `\${${path}} is not defined here`, {
        hint: 'save a result with "save:" before using it',
      });
    }
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}
