import type { NarrationEvent, TranscriptEvent } from '../../src/transcript/narration-event.ts';

/** A parsed event without where it came from, to compare with what was written. */
export function strip(e: TranscriptEvent): NarrationEvent {
  const { line: _l, column: _c, indent: _i, dialect: _d, ...rest } = e;
  return rest as NarrationEvent;
}
