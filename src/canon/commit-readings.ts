import type { Decisions } from '../core/decisions.ts';
import { ProseError } from '../core/errors.ts';
import { canonicalJson } from './canonical-json.ts';
import type { LedgerReceipt } from './receipt.ts';

/** The two readings commitWorldModel follows (decision rows skip-rule and semantic-diff). */
export type CommitReadings = Pick<Decisions, 'skipRule' | 'semanticDiff'>;

/** The spec's text: skipped when the rendered outputs moved no fingerprint, and the diff is the moved fingerprints. */
export const SPEC_READINGS: Readonly<CommitReadings> = Object.freeze({
  skipRule: 'after-render',
  semanticDiff: 'computed',
});

export function commitReadingsOf(d: Decisions): CommitReadings {
  return { skipRule: d.skipRule, semanticDiff: d.semanticDiff };
}

/**
 * The before-render reading (prose.md "The Render Harness Seam"; SKILL.md "Format Detection" item 7): the reconciler
 * skips when neither the contract nor an input moved since the node's last receipt, whatever a render would write.
 * A failed last receipt never skips: retrying is the reconciler's call (session "3.2"), and a skip would never retry.
 */
export function reconcilerSkips(head: LedgerReceipt | undefined, contract: string, inputs: readonly string[]): boolean {
  if (!head || head.status === 'failed') return false;
  return head.contract_fingerprint === contract && canonicalJson(head.input_fingerprints) === canonicalJson(inputs);
}

/**
 * The semantic_diff a rendered receipt carries under the render-supplied reading: the context the VM passed
 * (`semanticDiff`, a JSON object), `{}` when it passed none; undefined under the computed reading, which ignores it.
 */
export function suppliedDiff(readings: CommitReadings, given: unknown): Record<string, unknown> | undefined {
  if (given !== undefined && (given === null || typeof given !== 'object' || Array.isArray(given)))
    throw new ProseError('E_INVALID_ARGUMENT', 'semanticDiff is a JSON object (what moved, as the render was told)', {
      location: { field: 'semanticDiff' },
    });
  if (readings.semanticDiff !== 'render-supplied') return undefined;
  return { ...((given as Record<string, unknown> | undefined) ?? {}) };
}
