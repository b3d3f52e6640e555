import type { Decisions } from '../../core/decisions.ts';
import { mutant, type Mutant } from '../mutant.ts';

type Readings = Pick<Decisions, 'skipRule' | 'semanticDiff'>;

/** Follows `own` while the run pins the default reading: judged in v0 with the rest. */
const unasked = (name: string, bug: string, own: Partial<Readings>) =>
  mutant(name, bug, { decisions: (d) => ({ ...d, ...own }) });

/** Follows `own` while the run pins `pinned`: judged in the current edition, on the receipts cases of that reading. */
const underPinned = (name: string, bug: string, pinned: Partial<Readings>, own: Partial<Readings>) =>
  mutant(name, bug, { edition: 'current', areas: ['receipts'], pinned, decisions: (d) => ({ ...d, ...own }) });

/**
 * A backend following one reading of "skipped" or of semantic_diff while the run pins the other (decisions skip-rule,
 * semantic-diff; conformance/cases/receipt-readings.yaml).
 */
export const READING_MUTANTS: Mutant[] = [
  unasked(
    'skips-from-inputs-unasked',
    'the reconciler skips when the contract and inputs did not move, though the run pins the after-render reading',
    { skipRule: 'before-render' },
  ),
  underPinned(
    'renders-what-reconciler-skips',
    'under the before-render reading it still renders and compares outputs, publishing what an unmoved input gave',
    { skipRule: 'before-render' },
    { skipRule: 'after-render' },
  ),
  unasked(
    'semantic-diff-supplied-unasked',
    "a rendered receipt's semantic_diff is the context the render was given, though the run pins the computed reading",
    { semanticDiff: 'render-supplied' },
  ),
  underPinned(
    'semantic-diff-computed-unasked',
    "under the render-supplied reading a rendered receipt's semantic_diff is still the moved fingerprints",
    { semanticDiff: 'render-supplied' },
    { semanticDiff: 'computed' },
  ),
];
