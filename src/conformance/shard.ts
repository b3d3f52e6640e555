import { ProseError } from '../core/errors.ts';
import type { Case } from './case-types.ts';

/** Which share of the cases a run takes: shard `index` (from 1) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** Reads `I/N` (1 <= I <= N); anything else is a usage error naming the option. */
export function parseShard(text: string, option = '--shard'): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!(index >= 1 && count >= 1 && index <= count))
    throw new ProseError('E_USAGE', `${option} takes I/N with 1 <= I <= N, got ${JSON.stringify(text)}`, {
      hint: 'for example --shard 2/4 runs the second of four shares',
    });
  return { index, count };
}

/**
 * The cases of one shard, in suite order. Every shard computes the same cut from the same inputs, so the shards of
 * one CI matrix cover every case exactly once. With `durations` (ms per case id, from an earlier report) the cut
 * balances time: longest case first onto the shard with the least time so far; a case the report does not know
 * weighs the mean of those it does. Without durations every case weighs the same, which deals them out in turn.
 */
export function shardCases(cases: readonly Case[], shard: Shard, durations?: ReadonlyMap<string, number>): Case[] {
  const known = durations ? cases.flatMap((c) => (durations.has(c.id) ? [durations.get(c.id)!] : [])) : [];
  const mean = known.length ? known.reduce((a, b) => a + b, 0) / known.length : 1;
  const weight = (c: Case) => (durations ? (durations.get(c.id) ?? mean) : 1);
  // Longest first; equal weights keep suite order (a stable sort), so the tie-break never depends on the machine.
  const order = cases.map((c, i) => ({ c, i, w: weight(c) })).sort((a, b) => b.w - a.w || a.i - b.i);
  const load = new Array<number>(shard.count).fill(0);
  const mine = new Set<number>();
  for (const { i, w } of order) {
    let least = 0;
    for (let s = 1; s < shard.count; s++) if (load[s]! < load[least]!) least = s;
    load[least]! += w;
    if (least === shard.index - 1) mine.add(i);
  }
  return cases.filter((_, i) => mine.has(i));
}
