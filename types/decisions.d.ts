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
export declare const DEFAULT_DECISIONS: Readonly<Decisions>;
/** The values a run used, for report headers. Unknown keys are refused so a typo cannot silently pass. */
export declare function resolveDecisions(overrides?: Partial<Record<string, unknown>>): Decisions;
