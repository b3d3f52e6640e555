import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { growthExponent, growthRatio } from '../../src/bench/scale-fit.ts';

const curve = (f: (n: number) => number, sizes = [100, 1000, 10_000]) => sizes.map((size) => ({ size, ms: f(size) }));
/** Points from [size, ms] pairs. */
const pts = (...pairs: [number, number][]) => pairs.map(([size, ms]) => ({ size, ms }));
const near = (a: number | undefined, b: number, what: string) =>
  assert.ok(a !== undefined && Math.abs(a - b) < 1e-9, `${what}: ${a} is not ${b}`);

test('a flat cost fits 0, a linear one 1, a quadratic one 2, whatever the constant', () => {
  near(growthExponent(curve(() => 3)), 0, 'flat');
  near(growthExponent(curve((n) => 0.002 * n)), 1, 'linear');
  near(growthExponent(curve((n) => 1e-6 * n * n)), 2, 'quadratic');
  near(growthExponent(curve((n) => 5 * Math.sqrt(n), [10, 40, 90, 1000])), 0.5, 'square root, four sizes');
});

test('the fit is least squares over every size, not the two ends', () => {
  // Three sizes a decade apart: least squares and the ends agree (the middle only adds scatter).
  near(growthExponent(pts([100, 1], [1000, 10], [10_000, 1])), 0, 'hump');
  // Four: 1, 1, 1, 1000 ms; the ends say 1 (1000x over three decades), the fit 4.5 / 5.
  near(growthExponent(pts([10, 1], [100, 1], [1000, 1], [10_000, 1000])), 0.9, 'knee');
});

test('fewer than two usable sizes have no exponent; a zero time is not usable', () => {
  assert.is(growthExponent([]), undefined);
  assert.is(growthExponent(pts([100, 2])), undefined);
  assert.is(growthExponent(pts([100, 2], [1000, 0])), undefined);
  assert.is(growthExponent(pts([100, 2], [100, 3])), undefined, 'one size twice');
});

test('growth is the time at the largest size over the time at the smallest, in any order given', () => {
  near(growthRatio(pts([10_000, 8], [100, 2], [1000, 50])), 4, 'growth');
  assert.is(growthRatio(pts([100, 2])), undefined);
});

test.run();
