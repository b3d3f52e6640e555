export {
  createInContextFactory,
  createTranscriptBackend,
  inContextFactory,
  inContextCompactFactory,
  IN_CONTEXT_CAPABILITIES,
} from './in-context-factory.ts';
export type { InContextOptions } from './in-context-factory.ts';
export { TranscriptStore } from './transcript-store.ts';
