export { checkTranscript } from './check-transcript.ts';
export { transcriptVerifier, looksLikeTranscript } from './transcript-verifier.ts';
export { TRANSCRIPT_RULES, type TranscriptRuleId } from './transcript-rules.ts';
