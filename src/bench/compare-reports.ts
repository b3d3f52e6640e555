import { ProseError } from '../core/errors.ts';
import { BENCH_SCHEMA, type BenchReport } from './bench-report.ts';

export interface RatioChange {
  key: string;
  baseline: number;
  current: number;
  /** current / baseline - 1 (positive is slower). */
  change: number;
  verdict: 'regressed' | 'improved' | 'same' | 'missing';
}

/**
 * Compares the ratios (never the milliseconds) of two runs of the same profile. A ratio regresses when it grows
 * by more than `tolerance` (0.15 = 15%); a ratio the current run could not measure is reported, not failed.
 */
export function compareReports(current: BenchReport, baseline: unknown, tolerance: number): RatioChange[] {
  const base = baseline as Partial<BenchReport>;
  if (base?.schema !== BENCH_SCHEMA || typeof base.ratios !== 'object' || base.ratios === null) {
    throw new ProseError('E_USAGE', `the baseline is not a ${BENCH_SCHEMA} report (save one with --format json)`);
  }
  if (base.profile !== current.profile) {
    throw new ProseError(
      'E_USAGE',
      `the baseline is a ${base.profile} run and this is a ${current.profile} run; their ratios are not comparable`,
      { hint: current.profile === 'quick' ? 'drop --quick' : 'add --quick' },
    );
  }
  const out: RatioChange[] = [];
  for (const [key, b] of Object.entries(base.ratios)) {
    const c = current.ratios[key];
    if (typeof b !== 'number' || !Number.isFinite(b) || b <= 0)
      throw new ProseError('E_USAGE', `baseline ratio ${key} is not a positive number`);
    if (c === undefined) {
      out.push({ key, baseline: b, current: Number.NaN, change: Number.NaN, verdict: 'missing' });
      continue;
    }
    const change = c / b - 1;
    out.push({
      key,
      baseline: b,
      current: c,
      change,
      verdict: change > tolerance ? 'regressed' : change < -tolerance ? 'improved' : 'same',
    });
  }
  return out;
}
