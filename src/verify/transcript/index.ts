export { checkTranscript } from './check-transcript.ts';
export { transcriptVerifier, transcriptEditionOf, looksLikeTranscript } from './transcript-verifier.ts';
export { transcriptEdition, type TranscriptEdition } from './transcript-edition.ts';
export { TRANSCRIPT_RULES, type TranscriptRuleId } from './transcript-rules.ts';
