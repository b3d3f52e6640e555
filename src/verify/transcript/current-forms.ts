import type { TranscriptEvent } from '../../transcript/narration-event.ts';

/** A v0 verbose line and what the current in-context.md says instead ("Core Markers"; decision transcript-edition). */
const CURRENT_FORM: Partial<Record<TranscriptEvent['kind'], [v0: string, current: string]>> = {
  statement: ['[Position], [Success] or [Warning]', '`N→ name ✓`, `N→ ✓` or `N→ ✗ error`'],
  'frame-enter': ['[Frame+]', '`#ID name`'],
  'frame-exit': ['[Frame-]', '`#ID done`'],
  'parallel-start': ['[Parallel]', '`∥ [a b c]`'],
  branch: ['[Parallel]', '`∥ [a✓ b✓ c→]`'],
  'parallel-join': ['[Parallel]', '`∥ done`'],
  'loop-start': ['[Loop]', '`loop:1/M`'],
  'loop-iteration': ['[Loop]', '`loop:I/M`'],
  'loop-exit': ['[Loop]', '`loop:I/M exit`'],
  try: ['[Try]', '`try→`, `catch→` or `finally→`'],
  'run-start': ['[Program]', '`OpenProse Run Start`'],
  'run-switch': ['[Program]', '`OpenProse Run ...`'],
  'run-status': ['[Program]', '`---end`'],
};

/**
 * A transcript judged by the current edition: each verbose line for a construct the current text gives a compact
 * marker is reported with that marker. Verbose lines for what the current text has no marker for (values, memory,
 * the canonical store) are the store's and pass. The state is still read from either form, so these are warnings.
 */
export function currentFormFindings(
  events: readonly TranscriptEvent[],
  add: (at: { line: number; column: number }, message: string, hint: string) => void,
): void {
  for (const e of events) {
    if (e.dialect !== 'verbose') continue;
    if ((e.kind === 'run-start' || e.kind === 'run-switch' || e.kind === 'run-status') && e.said === 'run') continue;
    const form = CURRENT_FORM[e.kind];
    if (form === undefined) continue;
    const what = 'said' in e && e.said === 'program' ? '"OpenProse Program ..."' : `a ${form[0]} line`;
    add(
      e,
      `${what} is v0's narration; the current in-context.md says ${form[1]}`,
      'the current text: "Use compact markers"',
    );
  }
}
