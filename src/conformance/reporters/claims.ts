import type { CapabilityVerdict } from '../probes/capability-verdict.ts';
import { isContradiction } from '../probes/capability-verdict.ts';
import type { CapabilityReport } from '../probes/capability-report.ts';
import { unreachable } from '../unreachable.ts';

/** What every report says of capability claims, so the formats agree. */

/** A verdict a person should read: a contradiction, an errored probe, or a capability no probe can exercise yet. */
export const needsAttention = (v: CapabilityVerdict): boolean => v.verdict !== 'ok';

/** An ok verdict whose probe did not run: undeclared, with nothing to refuse (or no probe for it). */
export const notExercised = (v: CapabilityVerdict): boolean => v.verdict === 'ok' && v.works === null;

/** The short cell of the capability tables (md, html). */
export function claimCell(v: CapabilityVerdict | undefined): string {
  if (!v) return '-';
  switch (v.verdict) {
    case 'ok':
      return v.declared ? 'yes' : v.works === null ? 'no (n/a)' : 'no';
    case 'claimed-but-broken':
      return 'BROKEN';
    case 'undeclared-but-works':
      return 'WORKS!';
    case 'undeclared-half-works':
      return 'HALF!';
    case 'unprobed':
      return 'unprobed';
    case 'errored':
      return 'errored';
    default:
      return unreachable(v.verdict, 'verdict');
  }
}

export const CLAIM_LEGEND =
  'yes: declared and works; no: undeclared and refused (E_UNSUPPORTED or its off behaviour); ' +
  'no (n/a): undeclared and not exercised (nothing to refuse, or no probe yet); ' +
  'BROKEN: declared but does not work; WORKS!: works although undeclared; HALF!: undeclared, neither works nor answers E_UNSUPPORTED; ' +
  'unprobed: declared, no probe can exercise it yet; errored: the probe could not tell (the backend broke or hung).';

/** `durable: claimed-but-broken: declared, but ...` */
export const claimLine = (v: CapabilityVerdict): string =>
  `${v.capability}: ${v.verdict}${v.detail ? `: ${v.detail}` : ''}`;

export const isFailure = (v: CapabilityVerdict): boolean => isContradiction(v.verdict);

/** Capabilities (rows, in probe order) x backends (columns) for the table of md and html. */
export function claimsTable(reports: readonly CapabilityReport[]): {
  capabilities: string[];
  backends: string[];
  cell(cap: string, backend: string): CapabilityVerdict | undefined;
} {
  const capabilities = [...new Set(reports.flatMap((r) => r.verdicts.map((v) => v.capability)))];
  const byBackend = new Map(
    reports.map((r) => [r.backend, new Map(r.verdicts.map((v) => [v.capability as string, v]))]),
  );
  return { capabilities, backends: reports.map((r) => r.backend), cell: (cap, b) => byBackend.get(b)?.get(cap) };
}
