import type { Capability } from '../../core/capabilities.ts';

/**
 * What probing one capability found. `ok`: the declaration and the behaviour agree. The three contradictions: a
 * declared capability that does not work, an undeclared one that works, an undeclared one that neither works nor
 * answers E_UNSUPPORTED. `unprobed`: declared, but no probe can exercise it yet (shown with its reason, never a
 * failure). `errored`: the probe could not tell, because the backend or plugin broke (E_PLUGIN, E_BACKEND, E_IO, a
 * plain exception or a timeout), as an errored case.
 */
export type Verdict =
  'ok' | 'claimed-but-broken' | 'undeclared-but-works' | 'undeclared-half-works' | 'unprobed' | 'errored';

export const VERDICTS: readonly Verdict[] = [
  'ok',
  'claimed-but-broken',
  'undeclared-but-works',
  'undeclared-half-works',
  'unprobed',
  'errored',
];

export interface CapabilityVerdict {
  capability: Capability;
  declared: boolean;
  /** Whether the probe's sequence worked; null when it was not run (or could not finish). */
  works: boolean | null;
  verdict: Verdict;
  /** Why, when the verdict is not a plain ok. */
  detail?: string;
}

/** The verdicts where the behaviour contradicts the declaration: each one fails the run (exit 1). */
export function isContradiction(v: Verdict): boolean {
  return v === 'claimed-but-broken' || v === 'undeclared-but-works' || v === 'undeclared-half-works';
}
