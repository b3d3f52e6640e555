/**
 * Matches a seen value against an expectation. Objects match as subsets (extra keys in what was seen are fine),
 * arrays element by element with the same length, scalars exactly. Matchers:
 *   {$match: "regex"}  string matches      {$absent: true}  key missing or undefined
 *   {$any: true}       anything present    {$length: N}     string length (code points) or array length
 *   {$type: "string"}  typeof / "array" / "null"            {$contains: x}  substring, or array holding a match
 *   {$bytes: N}        UTF-8 length of a string              {$not: x}      does not match x
 *   {$equals: x}       exactly x: no extra keys anywhere     {$at: [i, x]}  item i of a list matches x (i < 0 counts from the end)
 * Returns undefined on a match, else a message naming the path.
 */
export function match(expected: unknown, seen: unknown, path = 'result'): string | undefined {
  if (isMatcher(expected)) return matchOp(expected, seen, path);
  if (Array.isArray(expected)) {
    if (!Array.isArray(seen)) return `${path}: expected a list, saw ${show(seen)}`;
    if (seen.length !== expected.length) return `${path}: expected ${expected.length} items, saw ${seen.length}`;
    for (let i = 0; i < expected.length; i++) {
      const m = match(expected[i], seen[i], `${path}[${i}]`);
      if (m) return m;
    }
    return undefined;
  }
  if (expected && typeof expected === 'object') {
    if (!seen || typeof seen !== 'object' || Array.isArray(seen))
      return `${path}: expected an object, saw ${show(seen)}`;
    for (const [k, v] of Object.entries(expected)) {
      const m = match(v, (seen as Record<string, unknown>)[k], `${path}.${k}`);
      if (m) return m;
    }
    return undefined;
  }
  return Object.is(expected, seen) || expected === seen
    ? undefined
    : `${path}: expected ${show(expected)}, saw ${show(seen)}`;
}

function isMatcher(x: unknown): x is Record<string, unknown> {
  if (!x || typeof x !== 'object' || Array.isArray(x)) return false;
  const keys = Object.keys(x);
  return keys.length === 1 && keys[0]!.startsWith('$');
}

function matchOp(m: Record<string, unknown>, seen: unknown, path: string): string | undefined {
  const [op, arg] = Object.entries(m)[0]!;
  switch (op) {
    case '$absent':
      return seen === undefined ? undefined : `${path}: expected no value, saw ${show(seen)}`;
    case '$any':
      return seen !== undefined ? undefined : `${path}: expected a value, saw none`;
    case '$match':
      return typeof seen === 'string' && new RegExp(String(arg), 'u').test(seen)
        ? undefined
        : `${path}: expected to match /${arg}/, saw ${show(seen)}`;
    case '$type': {
      const t = seen === null ? 'null' : Array.isArray(seen) ? 'array' : typeof seen;
      return t === arg ? undefined : `${path}: expected a ${arg}, saw ${t}`;
    }
    case '$length': {
      const len = typeof seen === 'string' ? [...seen].length : Array.isArray(seen) ? seen.length : undefined;
      return len === arg ? undefined : `${path}: expected length ${arg}, saw ${len ?? show(seen)}`;
    }
    case '$bytes': {
      const len = typeof seen === 'string' ? Buffer.byteLength(seen, 'utf8') : undefined;
      return len === arg ? undefined : `${path}: expected ${arg} UTF-8 bytes, saw ${len ?? show(seen)}`;
    }
    case '$contains':
      if (typeof seen === 'string' && typeof arg === 'string')
        return seen.includes(arg) ? undefined : `${path}: expected to contain ${show(arg)}, saw ${show(seen)}`;
      if (Array.isArray(seen))
        return seen.some((s) => match(arg, s) === undefined) ? undefined : `${path}: no item matches ${show(arg)}`;
      return `${path}: expected a string or list containing ${show(arg)}, saw ${show(seen)}`;
    case '$equals':
      return JSON.stringify(sortKeys(arg)) === JSON.stringify(sortKeys(seen))
        ? undefined
        : `${path}: expected exactly ${show(arg)}, saw ${show(seen)}`;
    case '$at': {
      if (!Array.isArray(arg) || arg.length !== 2 || !Number.isInteger(arg[0]))
        return `${path}: $at takes [index, expectation]`;
      if (!Array.isArray(seen)) return `${path}: expected a list, saw ${show(seen)}`;
      const i = (arg[0] as number) < 0 ? seen.length + (arg[0] as number) : (arg[0] as number);
      return i < 0 || i >= seen.length
        ? `${path}: no item ${arg[0]} in a list of ${seen.length}`
        : match(arg[1], seen[i], `${path}[${i}]`);
    }
    case '$not':
      return match(arg, seen, path) === undefined ? `${path}: expected anything but ${show(arg)}` : undefined;
    default:
      return `${path}: unknown matcher ${op}`;
  }
}

/** A short rendering for messages: long strings are cut so a 100 KiB value does not flood a report. */
export function show(v: unknown): string {
  const s = v === undefined ? 'nothing' : (JSON.stringify(v) ?? String(v));
  return s.length > 200 ? `${s.slice(0, 120)}... (${s.length} chars)` : s;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}
