import type { Edition } from '../../core/editions.ts';
import type { ParseResult, TranscriptEvent } from '../../transcript/narration-event.ts';

/** The edition a transcript reads as, and the line that decided it (decision transcript-edition). */
export interface TranscriptEdition {
  edition: Edition;
  evidence: string;
}

const RUN_LINES = new Set<TranscriptEvent['kind']>(['run-start', 'run-switch', 'run-status']);

/**
 * Tells a transcript's edition by its first run line: `OpenProse Run Start` (or `---end`, `---error`) is the current
 * in-context.md's, `[Program] ...` and `OpenProse Program Start` v0's. A transcript without a run line goes by its
 * dialect: the compact markers are the current text's only ones, the verbose markers v0's.
 */
export function transcriptEdition(parsed: ParseResult): TranscriptEdition {
  const first = parsed.events.find((e) => RUN_LINES.has(e.kind)) as
    Extract<TranscriptEvent, { kind: 'run-start' | 'run-switch' | 'run-status' }> | undefined;
  if (first) {
    const at = `line ${first.line}`;
    if (first.said === 'run')
      return { edition: 'current', evidence: `${at}: "OpenProse Run ...", the current in-context.md's announcement` };
    if (first.said === 'program')
      return { edition: 'v0', evidence: `${at}: "OpenProse Program ...", v0 in-context.md's announcement` };
    if (first.dialect === 'compact')
      return { edition: 'current', evidence: `${at}: "---end", the current in-context.md's end of a run` };
    return { edition: 'v0', evidence: `${at}: a [Program] line, v0 in-context.md's marker` };
  }
  return parsed.dialect === 'compact'
    ? { edition: 'current', evidence: 'no run line; compact markers, the current in-context.md narration' }
    : { edition: 'v0', evidence: 'no run line; verbose [Marker] lines, the v0 in-context.md narration' };
}
