import { readFileSync } from 'node:fs';
import { isMap, LineCounter, parseDocument } from 'yaml';
import { ProseError } from '../core/errors.ts';
import type { Outcome } from './outcome.ts';

/**
 * Expected outcomes kept apart from the suite (`--expect FILE`): per case id, `fail` or `skip`, with a reason and
 * optionally a link and the backends it applies to.
 *
 *   expectations:
 *     bindings/const-rebind: { outcome: fail, reason: "we allow const rebinding (#12)", link: "https://...", backends: [mine] }
 */
export interface Expectation {
  outcome: 'fail' | 'skip';
  reason: string;
  link?: string;
  backends?: string[];
  line: number;
}

export type Expectations = Map<string, Expectation>;

const KEYS = new Set(['outcome', 'reason', 'link', 'backends']);

export function loadExpectations(path: string): Expectations {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ProseError('E_USAGE', `cannot read expectations file ${path}: ${(err as Error).message}`);
  }
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc });
  const bad = (line: number, message: string, field?: string) =>
    new ProseError('E_CASE', message, { location: { file: path, line, ...(field ? { field } : {}) } });
  if (doc.errors[0]) throw bad(lc.linePos(doc.errors[0].pos[0]).line, doc.errors[0].message.split('\n')[0]!);
  const top = doc.contents;
  const list = isMap(top) ? top.get('expectations', true) : undefined;
  if (!isMap(list)) throw bad(1, 'an expectations file is a mapping with "expectations:" of case ids');
  const out: Expectations = new Map();
  for (const pair of list.items) {
    const id = String((pair.key as { value?: unknown })?.value ?? pair.key);
    const line = lc.linePos((pair.key as { range?: [number] })?.range?.[0] ?? 0).line;
    const v = (pair.value as { toJSON?: () => unknown })?.toJSON?.() as Record<string, unknown> | undefined;
    if (!v || typeof v !== 'object') throw bad(line, `expectation for ${id} must be a mapping`, id);
    for (const k of Object.keys(v))
      if (!KEYS.has(k)) throw bad(line, `unknown field "${k}"; allowed: ${[...KEYS].join(', ')}`, `${id}.${k}`);
    if (v.outcome !== 'fail' && v.outcome !== 'skip') throw bad(line, 'outcome must be fail or skip', `${id}.outcome`);
    if (typeof v.reason !== 'string' || !v.reason) throw bad(line, 'every expectation needs a reason', `${id}.reason`);
    if (v.backends !== undefined && !(Array.isArray(v.backends) && v.backends.every((b) => typeof b === 'string')))
      throw bad(line, 'backends must be a list of names', `${id}.backends`);
    out.set(id, {
      outcome: v.outcome,
      reason: v.reason,
      ...(typeof v.link === 'string' ? { link: v.link } : {}),
      ...(v.backends ? { backends: v.backends as string[] } : {}),
      line,
    });
  }
  return out;
}

/** Turns a raw outcome into what the expectation makes of it. A skip expectation is applied before running. */
export function applyExpectation(exp: Expectations | undefined, backend: string, id: string, raw: Outcome): Outcome {
  const e = exp?.get(id);
  if (!e || (e.backends && !e.backends.includes(backend))) return raw;
  const link = e.link ? { link: e.link } : {};
  if (e.outcome === 'skip') return { status: 'skipped', reason: `expected skip: ${e.reason}` };
  if (raw.status === 'failed' || raw.status === 'errored')
    return { status: 'xfailed', reason: e.reason, ...link, failure: raw };
  if (raw.status === 'passed') return { status: 'xpassed', reason: e.reason, ...link };
  return raw;
}

export function expectationFor(exp: Expectations | undefined, backend: string, id: string): Expectation | undefined {
  const e = exp?.get(id);
  return e && (!e.backends || e.backends.includes(backend)) ? e : undefined;
}
