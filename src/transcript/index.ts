export type { Dialect, Diagnostic, NarrationEvent, ParseResult, TranscriptEvent } from './narration-event.ts';
export { parseTranscript, type ParseOptions } from './parse-transcript.ts';
export { writeVerbose } from './write-verbose.ts';
export { writeCompact } from './write-compact.ts';
export { contextTier, codePointLength, type ContextTier } from './context-tier.ts';
export { encodeText, decodeValue } from './value-codec.ts';
