/**
 * The pinned choices, as one value passed to every backend at creation and printed in every report header.
 * The rows that explain them are data, in conformance/decisions/*.yaml, and render to docs/decisions.md.
 */
import { ProseError } from './errors.ts';

/** When a receipt is `skipped` (decision row `skip-rule`): from the render's outputs, or before any render. */
export const SKIP_RULES = ['after-render', 'before-render'] as const;
export type SkipRule = (typeof SKIP_RULES)[number];

/** What a rendered receipt's `semantic_diff` holds (decision row `semantic-diff`). */
export const SEMANTIC_DIFFS = ['computed', 'render-supplied'] as const;
export type SemanticDiff = (typeof SEMANTIC_DIFFS)[number];

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
  /** The reading of "skipped" a run judges by: the spec's output comparison (default) or a reconciler's input one. */
  skipRule: SkipRule;
  /** A rendered receipt's semantic_diff: the moved fingerprints (default) or the context the render was given. */
  semanticDiff: SemanticDiff;
}

export const DEFAULT_DECISIONS: Readonly<Decisions> = Object.freeze({
  attachmentThresholdBytes: 102_400,
  maxRecursionDepth: 100,
  anonWidth: 3,
  segmentWidth: 3,
  contextVerbatimBelow: 2000,
  contextSummarizeUpTo: 8000,
  skipRule: 'after-render',
  semanticDiff: 'computed',
});

/** The decisions that are a choice between named readings, each with its values (the rest are positive integers). */
export const DECISION_CHOICES: Readonly<Partial<Record<keyof Decisions, readonly string[]>>> = Object.freeze({
  skipRule: SKIP_RULES,
  semanticDiff: SEMANTIC_DIFFS,
});

/** `skip-rule` and `skipRule` name the same decision: rows are kebab-case, settings camelCase. */
function settingName(key: string): string {
  return key.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The values a run used, for report headers. Unknown keys are refused so a typo cannot silently pass. */
export function resolveDecisions(overrides: Partial<Record<string, unknown>> = {}): Decisions {
  const out: Decisions = { ...DEFAULT_DECISIONS };
  for (const [given, value] of Object.entries(overrides)) {
    const key = settingName(given);
    if (!(key in DEFAULT_DECISIONS))
      throw new ProseError('E_USAGE', `unknown decision "${given}"`, {
        hint: `known decisions: ${Object.keys(DEFAULT_DECISIONS).join(', ')}`,
      });
    const choices = DECISION_CHOICES[key as keyof Decisions];
    if (choices) {
      if (typeof value !== 'string' || !choices.includes(value))
        throw new ProseError(
          'E_USAGE',
          `decision "${given}" is one of ${choices.join(', ')}, got ${JSON.stringify(value)}`,
        );
    } else if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      throw new ProseError('E_USAGE', `decision "${given}" must be a positive integer, got ${JSON.stringify(value)}`);
    }
    (out as unknown as Record<string, unknown>)[key] = value;
  }
  return out;
}
