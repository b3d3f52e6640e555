/** When a receipt is `skipped` (decision row `skip-rule`): from the render's outputs, or before any render. */
export declare const SKIP_RULES: readonly ["after-render", "before-render"];
export type SkipRule = (typeof SKIP_RULES)[number];
/** What a rendered receipt's `semantic_diff` holds (decision row `semantic-diff`). */
export declare const SEMANTIC_DIFFS: readonly ["computed", "render-supplied"];
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
export declare const DEFAULT_DECISIONS: Readonly<Decisions>;
/** The decisions that are a choice between named readings, each with its values (the rest are positive integers). */
export declare const DECISION_CHOICES: Readonly<Partial<Record<keyof Decisions, readonly string[]>>>;
/** The values a run used, for report headers. Unknown keys are refused so a typo cannot silently pass. */
export declare function resolveDecisions(overrides?: Partial<Record<string, unknown>>): Decisions;
