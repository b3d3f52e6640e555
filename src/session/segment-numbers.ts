import type { Finding } from '../verify/finding.ts';
import { finding, type Where } from './session-rules.ts';

/**
 * The segment the message names must be the newest, numbered one past the previous one: numbers run 1..max with no
 * gap, each used once (filesystem.md "Segment Numbering"). `expected` is the number the VM handed out, when known.
 */
export function checkSegmentNumbers(
  numbers: readonly number[],
  named: number,
  where: Where,
  expected?: number,
): Finding[] {
  const out: Finding[] = [];
  const sorted = [...numbers].sort((a, b) => a - b);
  const max = sorted.at(-1) ?? 0;
  const seen = new Set<number>();
  for (const n of sorted) {
    if (seen.has(n))
      out.push(
        finding(
          'segment.number-repeat',
          `segment number ${n} is used twice`,
          where,
          'each segment gets the next number once',
        ),
      );
    seen.add(n);
  }
  const gaps: number[] = [];
  for (let k = 1; k <= max; k++) if (!seen.has(k)) gaps.push(k);
  if (gaps.length)
    out.push(
      finding(
        'segment.number-skip',
        `segment numbers skip ${gaps.join(', ')} (highest is ${max})`,
        where,
        'number segments 1, 2, 3, ... one past the previous',
      ),
    );
  if (!seen.has(named))
    out.push(finding('segment.missing', `segment ${named} named in the message was not written`, where));
  else if (named < max)
    out.push(
      finding(
        'segment.number-repeat',
        `segment ${named} is not the newest (${max} exists): the message repeats an old number`,
        where,
        'write a new segment, one past the newest, and name that one',
      ),
    );
  if (expected !== undefined && named !== expected) {
    const rule = named > expected ? 'segment.number-skip' : 'segment.number-repeat';
    out.push(finding(rule, `the VM handed out segment ${expected}, the message names ${named}`, where));
  }
  return out;
}
