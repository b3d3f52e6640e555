/**
 * How an operation's cost grows with the run: the least-squares slope of log(time) on log(size), so 0 is flat, 1 is
 * linear in the run (a whole run quadratic) and 0.15 is what noise and a B-tree's log n look like across two decades.
 */
export interface ScaleSample {
  size: number;
  ms: number;
}

/** The fitted exponent, or undefined with fewer than two sizes (or a non-positive figure, which has no log). */
export function growthExponent(points: readonly ScaleSample[]): number | undefined {
  const usable = points.filter((p) => p.size > 0 && p.ms > 0);
  if (usable.length < 2) return undefined;
  const xs = usable.map((p) => Math.log(p.size));
  const ys = usable.map((p) => Math.log(p.ms));
  const mx = mean(xs);
  const my = mean(ys);
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? undefined : num / den;
}

/** Time at the largest size over time at the smallest (issue 35's "at most 2x"), or undefined with one size. */
export function growthRatio(points: readonly ScaleSample[]): number | undefined {
  if (points.length < 2) return undefined;
  const sorted = [...points].sort((a, b) => a.size - b.size);
  const first = sorted[0]!.ms;
  return first > 0 ? sorted.at(-1)!.ms / first : undefined;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
