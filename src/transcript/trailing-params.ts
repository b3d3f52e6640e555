import { encodeText, readJsonString } from './value-codec.ts';

/**
 * The seed closes many marker lines with a parenthesised list: `(execution_id: 1, depth: 1)`, `(max: 5)`,
 * `(mutable)`, `(reassignment, was: "AI safety...")`. The store puts its ids there too (`loop: l1`).
 * Items are `key: value` (value a JSON literal or bare text) or bare flags.
 */
export interface Params {
  values: Record<string, string>;
  flags: string[];
}

export interface SplitLine {
  head: string;
  params: Params;
  /** Whether a parameter list was found. */
  found: boolean;
}

const EMPTY: Params = { values: {}, flags: [] };

export function splitParams(line: string): SplitLine {
  // The seed writes `(execution_id: 2)  # Shadows parent's 'parts'`: a trailing comment after the list.
  const s = line.replace(/\)\s+#\s[^"]*$/, ')').trimEnd();
  if (!s.endsWith(')')) return { head: s, params: EMPTY, found: false };
  const opens = openParens(s);
  for (let k = opens.length - 1; k >= 0; k--) {
    const p = opens[k]!;
    if (p > 0 && s[p - 1] !== ' ') continue;
    const params = parseItems(s.slice(p + 1, -1));
    if (params) return { head: s.slice(0, p).trimEnd(), params, found: true };
  }
  return { head: s, params: EMPTY, found: false };
}

/** Positions of `(` outside JSON string literals. */
function openParens(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '"') {
      const r = readJsonString(s, i);
      if (!r) return out;
      i = r.end - 1;
    } else if (s[i] === '(') {
      out.push(i);
    }
  }
  return out;
}

function parseItems(body: string): Params | undefined {
  const items = splitTopLevel(body);
  if (!items) return undefined;
  // Entries, made an object at the end: assigning `values['__proto__']` would set the prototype, not a key.
  const values: [string, string][] = [];
  const flags: string[] = [];
  for (const raw of items) {
    const item = raw.trim();
    if (item.length === 0) return undefined;
    const kv = /^([A-Za-z_][\w-]*):\s*(.*)$/s.exec(item);
    if (kv) {
      const v = kv[2]!;
      if (v.startsWith('"')) {
        const r = readJsonString(v, 0);
        if (!r || r.end !== v.length) return undefined;
        values.push([kv[1]!, r.value]);
      } else {
        if (/[()"]/.test(v)) return undefined;
        values.push([kv[1]!, v.trim()]);
      }
    } else if (/^[\w][\w\s'-]*$/.test(item)) {
      flags.push(item);
    } else {
      return undefined;
    }
  }
  return { values: Object.fromEntries(values), flags };
}

/** Splits on commas outside JSON strings; undefined when a string is unterminated. */
function splitTopLevel(body: string): string[] | undefined {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '"') {
      const r = readJsonString(body, i);
      if (!r) return undefined;
      i = r.end - 1;
    } else if (body[i] === ',') {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  out.push(body.slice(start));
  return out;
}

/** Renders params in the seed's form; values that are not plain words become JSON literals. */
export function formatParams(values: [string, string | number | undefined][], flags: string[] = []): string {
  const items = [...flags];
  for (const [k, v] of values) {
    if (v === undefined) continue;
    const text = String(v);
    items.push(`${k}: ${/^[\w.:+-]+$/.test(text) ? text : encodeText(text)}`);
  }
  return items.length ? ` (${items.join(', ')})` : '';
}

/** Reads `execution_id` as the store writes it: a number, `root` for null; undefined when absent or not a number. */
export function readExecutionId(values: Record<string, string>, key = 'execution_id'): number | null | undefined {
  const v = values[key];
  if (v === undefined) return undefined;
  if (v === 'root') return null;
  return /^\d+$/.test(v) ? Number(v) : undefined;
}

export function readInt(values: Record<string, string>, key: string): number | undefined {
  const v = values[key];
  return v !== undefined && /^\d+$/.test(v) && Number.isSafeInteger(Number(v)) ? Number(v) : undefined;
}
