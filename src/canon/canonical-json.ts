import { ProseError } from '../core/errors.ts';

export interface CanonicalJsonOptions {
  /**
   * What an `undefined` object field does. `drop` (default) is the reference `jsonFile()`; `throw` is the
   * reference receipt hasher (`renderCanonical`), which refuses it.
   */
  undefinedFields?: 'drop' | 'throw';
}

/**
 * Canonical JSON as the reference writes it: object keys sorted with JS `.sort()` (UTF-16 code units, not code
 * points), no whitespace, strings and numbers as `JSON.stringify` prints them (so -0 is `0`, 1e21 is `1e+21`,
 * lone surrogates are escaped). Non-finite numbers, bigint, functions, symbols, `undefined` in arrays and
 * objects whose prototype is not Object.prototype or null (Date, Map, class instances) are refused (E_FORMAT).
 */
export function canonicalJson(value: unknown, opts: CanonicalJsonOptions = {}): string {
  const drop = (opts.undefinedFields ?? 'drop') === 'drop';
  const parts: string[] = [];
  render(value, '$', drop, parts, new Set());
  return parts.join('');
}

function render(value: unknown, field: string, drop: boolean, out: string[], stack: Set<object>): void {
  if (value === null) {
    out.push('null');
    return;
  }
  switch (typeof value) {
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'number':
      if (!Number.isFinite(value)) refuse(field, `non-finite number ${value}`);
      out.push(JSON.stringify(value));
      return;
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'object':
      break;
    default:
      refuse(field, `a value of type ${typeof value}`);
  }
  const obj = value as object;
  if (stack.has(obj)) refuse(field, 'a cycle');
  stack.add(obj);
  if (Array.isArray(obj)) {
    out.push('[');
    for (let i = 0; i < obj.length; i++) {
      if (i > 0) out.push(',');
      const item: unknown = obj[i];
      if (item === undefined) refuse(`${field}[${i}]`, 'undefined in an array');
      render(item, `${field}[${i}]`, drop, out, stack);
    }
    out.push(']');
  } else {
    const proto: unknown = Object.getPrototypeOf(obj);
    if (proto !== Object.prototype && proto !== null)
      refuse(field, `a non-plain object (${obj.constructor?.name ?? 'unknown'})`);
    const rec = obj as Record<string, unknown>;
    out.push('{');
    let first = true;
    for (const key of Object.keys(rec).sort()) {
      const item = rec[key];
      if (item === undefined) {
        if (drop) continue;
        refuse(`${field}.${key}`, 'an undefined field');
      }
      if (!first) out.push(',');
      first = false;
      out.push(JSON.stringify(key), ':');
      render(item, `${field}.${key}`, drop, out, stack);
    }
    out.push('}');
  }
  stack.delete(obj);
}

function refuse(field: string, what: string): never {
  throw new ProseError('E_FORMAT', `canonical JSON cannot hold ${what}`, {
    location: { field },
    hint: 'only null, booleans, finite numbers, strings, arrays and plain objects are canonical',
  });
}
