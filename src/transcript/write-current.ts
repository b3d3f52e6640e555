import type { NarrationEvent } from './narration-event.ts';
import { formatParams } from './trailing-params.ts';
import { writeCompact } from './write-compact.ts';
import { runStartLines } from './write-verbose.ts';

const PAD = '   ';
const STATUS_WORD = { running: 'Running', interrupted: 'Interrupted' } as const;

/**
 * Renders one event as the current edition narrates it (in-context.md at HEAD; decision in-context-current-forms):
 * the compact markers, with the run lines in the text's own words. A run starts as `OpenProse Run Start`, names its
 * root contract (`Root:`, `Root path:`), and ends in `---end`; a failed run ends in `---error`, filesystem.md's
 * marker, since in-context.md has none. Every run line names its run in a trailing list, so a line reads alone.
 */
export function writeCurrent(e: NarrationEvent, depth = 0): string {
  const lines = runLines(e);
  if (lines === undefined) return writeCompact(e, depth);
  return lines.map((l, i) => (i === 0 ? l : PAD + l)).join('\n') + '\n';
}

function runLines(e: NarrationEvent): string[] | undefined {
  const run = (id: string | undefined) => formatParams([['run', id]]);
  switch (e.kind) {
    case 'run-start':
      return runStartLines(e, 'OpenProse Run Start', 'Root');
    case 'run-switch':
      return [`OpenProse Run Continuing${run(e.runId)}`];
    case 'run-status':
      if (e.status === 'completed' || e.status === 'end') return [`---end${run(e.runId)}`];
      if (e.status === 'failed') return [`---error${run(e.runId)}`];
      return [`OpenProse Run ${STATUS_WORD[e.status]}${run(e.runId)}`];
    default:
      return undefined;
  }
}
