import type { Edition } from '../../core/editions.ts';

/**
 * Which edition a verify report judged and how it came to it: read from the tree's marker files (`detected`), named
 * with `--edition` (`given`), or implied by the verifier named with `--kind` (`kind`). `edition` is null for state
 * that is no edition of the state spec (a Reactor directory). A transcript's edition is read from its run lines or
 * markers (src/verify/transcript/transcript-edition.ts), so its `detected` evidence names the line that decided.
 */
export interface EditionVerdict {
  edition: Edition | null;
  source: 'detected' | 'given' | 'kind';
  /** What decided it, for the report: the marker file, the option, or why there is none. */
  evidence: string;
}

/** One line for the text report: `edition current (detected: vm.log.md in the run directory)`. */
export function describeVerdict(v: EditionVerdict): string {
  return `edition ${v.edition ?? 'none'} (${v.source}: ${v.evidence})`;
}
