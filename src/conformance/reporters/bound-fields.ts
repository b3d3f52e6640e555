import type { Reporter } from './reporter.ts';

/**
 * How much of one field (a string from a backend or a case: a name, a value, a message) a report keeps, in UTF-16
 * code units. A backend may return megabytes in a name or an error, and every report repeats such a field many times
 * (each case row, each index entry): without a bound a 5 MB name ran a run out of memory before any report was
 * written. JSON Lines, the source report other tools read, keeps more than the reports people read.
 */
export const FIELD_BOUND = 4096;
export const JSON_FIELD_BOUND = 65536;
/** Entries kept of one array or object, and how deep one nests, under the same reasoning. */
export const ENTRIES_BOUND = 1000;
export const DEPTH_BOUND = 32;

/** `s` cut to `max` units (never inside a surrogate pair), with a marker saying how many units were cut. */
export function boundText(s: string, max: number): string {
  if (s.length <= max) return s;
  const high = s.charCodeAt(max - 1);
  const keep = high >= 0xd800 && high <= 0xdbff ? max - 1 : max;
  return `${s.slice(0, keep)}… [cut: ${s.length - keep} more characters]`;
}

/** A copy of `v` whose every string (keys too) is bounded, arrays and objects cut to ENTRIES_BOUND, depth to DEPTH_BOUND. */
export function boundValue<T>(v: T, max: number, depth = 0): T {
  if (typeof v === 'string') return boundText(v, max) as T;
  if (v === null || typeof v !== 'object') return v;
  if (depth >= DEPTH_BOUND) return `[cut: nested deeper than ${DEPTH_BOUND}]` as T;
  if (Array.isArray(v)) {
    const kept = v.slice(0, ENTRIES_BOUND).map((x: unknown) => boundValue(x, max, depth + 1));
    if (v.length > ENTRIES_BOUND) kept.push(`[cut: ${v.length - ENTRIES_BOUND} more entries]`);
    return kept as T;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  // Buffers, dates and the like are the runner's own values, not a backend's text: they pass as they are.
  if (proto !== Object.prototype && proto !== null) return v;
  const entries = Object.entries(v as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  for (const [k, x] of entries.slice(0, ENTRIES_BOUND)) out[boundText(k, max)] = boundValue(x, max, depth + 1);
  if (entries.length > ENTRIES_BOUND) out['[cut]'] = `${entries.length - ENTRIES_BOUND} more entries`;
  return out as T;
}

/** `inner` told only bounded data: every field of every header, probe report, result and footer is bounded to `max`. */
export function boundReporter(inner: Reporter, max: number): Reporter {
  const told = new WeakMap<object, unknown>();
  const bounded = <T extends object>(r: T): T => {
    const b = boundValue(r, max);
    told.set(r, b);
    return b;
  };
  // Required: a wrapper that leaves out an optional method drops it silently (notJudged once did); now a type error.
  const wrapped: Required<Reporter> = {
    header: (h) => inner.header(boundValue(h, max)),
    capabilities: (r) => inner.capabilities(boundValue(r, max)),
    result: (r) => inner.result(bounded(r)),
    footer: (backend, counts, extra) => inner.footer(boundText(backend, max), counts, boundValue(extra, max)),
    finish: (all) => inner.finish(all.map((r) => (told.get(r) as typeof r | undefined) ?? boundValue(r, max))),
    notJudged: (n) => inner.notJudged?.(boundValue(n, max)),
  };
  return wrapped;
}
