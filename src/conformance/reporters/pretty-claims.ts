import { contradictions, verdictSummary, type CapabilityReport } from '../probes/capability-report.ts';
import { needsAttention, notExercised } from './claims.ts';

/**
 * The "Capability claims" section of one backend: a count line, then every verdict that is not a plain ok with its
 * detail (contradictions and errors in capitals, like FAIL and ERROR; unprobed with its reason).
 */
export function prettyClaims(r: CapabilityReport): string {
  const out = [`  Capability claims (probed in ${r.durationMs} ms): ${verdictSummary(r.verdicts)}${quietList(r)}`];
  for (const v of r.verdicts.filter(needsAttention)) {
    const label = v.verdict === 'unprobed' ? v.verdict : v.verdict.toUpperCase();
    out.push(`    ${label.padEnd(21)} ${v.capability}${v.detail ? `: ${v.detail}` : ''}`);
  }
  return out.join('\n') + '\n';
}

/** `; undeclared, not exercised: a, b (nothing to refuse when undeclared); c (no probe ...)`, grouped by reason. */
function quietList(r: CapabilityReport): string {
  const byReason = new Map<string, string[]>();
  for (const v of r.verdicts.filter(notExercised))
    byReason.set(v.detail ?? '', [...(byReason.get(v.detail ?? '') ?? []), v.capability]);
  if (!byReason.size) return '';
  return `; undeclared, not exercised: ${[...byReason].map(([why, caps]) => `${caps.join(', ')}${why ? ` (${why})` : ''}`).join('; ')}`;
}

/** The closing line of the claims: how many were contradicted, errored or unprobed over the run's backends. */
export function prettyClaimsTotal(reports: readonly CapabilityReport[], skipped: boolean): string {
  if (skipped) return 'capability claims: not probed (--no-probe)';
  const all = reports.flatMap((r) => r.verdicts);
  const count = (v: string) => all.filter((x) => x.verdict === v).length;
  const backends = `${reports.length} backend${reports.length === 1 ? '' : 's'}`;
  return (
    `capability claims: ${contradictions(reports)} contradicted, ${count('errored')} errored, ` +
    `${count('unprobed')} unprobed, ${count('ok')} ok on ${backends}`
  );
}
