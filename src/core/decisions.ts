/**
 * The pinned choices, as one value passed to every backend at creation and printed in every report header.
 * The rows that explain them are data, in conformance/decisions/*.yaml, and render to docs/decisions.md.
 */
import { ProseError } from './errors.ts';

export interface Decisions {
  /** A binding value is written as an attachment when its UTF-8 length in bytes is greater than this. */
  attachmentThresholdBytes: number;
  /** Default max_depth of a block invocation. */
  maxRecursionDepth: number;
  /** Zero-padded width of anonymous binding numbers; numbers past the width grow (anon_1000). */
  anonWidth: number;
  /** Zero-padded width of segment numbers; numbers past the width grow (captain-1000.md). */
  segmentWidth: number;
  /** Context passing tiers of the in-context backend, in Unicode code points: verbatim below the first. */
  contextVerbatimBelow: number;
  contextSummarizeUpTo: number;
}

export const DEFAULT_DECISIONS: Readonly<Decisions> = Object.freeze({
  attachmentThresholdBytes: 102_400,
  maxRecursionDepth: 100,
  anonWidth: 3,
  segmentWidth: 3,
  contextVerbatimBelow: 2000,
  contextSummarizeUpTo: 8000,
});

/** The values a run used, for report headers. Unknown keys are refused so a typo cannot silently pass. */
export function resolveDecisions(overrides: Partial<Record<string, unknown>> = {}): Decisions {
  const out: Decisions = { ...DEFAULT_DECISIONS };
  for (const [key, value] of Object.entries(overrides)) {
    if (!(key in DEFAULT_DECISIONS))
      throw new ProseError('E_USAGE', `unknown decision "${key}"`, {
        hint: `known decisions: ${Object.keys(DEFAULT_DECISIONS).join(', ')}`,
      });
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      throw new ProseError('E_USAGE', `decision "${key}" must be a positive integer, got ${JSON.stringify(value)}`);
    }
    (out as unknown as Record<string, number>)[key] = value;
  }
  return out;
}
