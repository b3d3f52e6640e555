import { isContradiction, VERDICTS, type CapabilityVerdict, type Verdict } from './capability-verdict.ts';

/** The capability probes of one backend, as every reporter receives them (after the header, before the cases). */
export interface CapabilityReport {
  backend: string;
  durationMs: number;
  verdicts: CapabilityVerdict[];
}

export type VerdictCounts = Record<Verdict, number>;

export function countVerdicts(verdicts: readonly CapabilityVerdict[]): VerdictCounts {
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as VerdictCounts;
  for (const v of verdicts) counts[v.verdict] += 1;
  return counts;
}

/** Contradicted claims, summed over the given reports. */
export function contradictions(reports: readonly CapabilityReport[]): number {
  return reports.reduce((n, r) => n + r.verdicts.filter((v) => isContradiction(v.verdict)).length, 0);
}

/** 1 when a claim is contradicted (a conformance failure), 3 when a probe errored, else 0; as exitCodeFor is for cases. */
export function exitCodeForClaims(reports: readonly CapabilityReport[]): 0 | 1 | 3 {
  if (contradictions(reports) > 0) return 1;
  if (reports.some((r) => r.verdicts.some((v) => v.verdict === 'errored'))) return 3;
  return 0;
}

/** The worse of two exit codes: a failure (1) outranks a harness error (3), which outranks a pass. */
export function worstExit(a: 0 | 1 | 3, b: 0 | 1 | 3): 0 | 1 | 3 {
  if (a === 1 || b === 1) return 1;
  return a === 3 || b === 3 ? 3 : 0;
}

/** `11 ok, 2 unprobed, 1 claimed-but-broken`: every verdict that occurred, in a fixed order. */
export function verdictSummary(verdicts: readonly CapabilityVerdict[]): string {
  const c = countVerdicts(verdicts);
  return VERDICTS.filter((v) => c[v] > 0 || v === 'ok' || v === 'unprobed')
    .map((v) => `${c[v]} ${v}`)
    .join(', ');
}
