import { join } from 'node:path';
import { writeFileAtomic } from '../../io/atomic-write.ts';
import { appendLine } from './append-line.ts';
import { VmLogStates, type OpenGroup } from './vm-log-state.ts';

/**
 * `vm.log.md`, the current edition's append-only execution log (fs "`vm.log.md` — Append-Only Execution Log"):
 * the header, then one marker per line (fs "Event Markers"), each written as a single line append, never a rewrite.
 * The caller holds the run's lock, so step numbers are taken one at a time (what the log holds: vm-log-state.ts).
 */
export const VM_LOG = 'vm.log.md';

/** Caller text shown on one line: line breaks escaped, so nothing a caller names can start a line of its own. */
const oneLine = (s: string) => s.replace(/\\/g, '\\\\').replace(/\r/g, '\\r').replace(/\n/g, '\\n');

/** A word for a heading or a marker (no spaces): runs of white space become `-`, nothing becomes `root`. */
export const word = (s: string) => oneLine(s).trim().replace(/\s+/g, '-') || 'root';

/**
 * `# run:{id} {root-name}`, then `root:` with no blank line between (decision vm-log-header), then one blank line
 * before the first marker. No `upstream:` line: the operation contract has no run-typed inputs.
 */
export function vmLogHeader(runId: string, rootPath: string): string {
  const name = rootPath
    .split('/')
    .at(-1)!
    .replace(/\.prose\.md$|\.prose$|\.md$/, '');
  return `# run:${word(runId)} ${word(name)}\nroot: ${word(rootPath)}\n\n`;
}

export function writeVmLogHeader(runDir: string, runId: string, rootPath: string): void {
  writeFileAtomic(join(runDir, VM_LOG), vmLogHeader(runId, rootPath));
}

/**
 * The marker a receipt's status is logged with (fs "Event Markers"; decision current-vm-log-markers); a node that
 * is a branch of the open parallel group, not yet ended, gets its branch line `Na→` instead (vm-log-parallel-outcome).
 */
export function receiptMarker(node: string, status: string, failureReason: string | undefined): StepMarker {
  const outcome =
    status === 'rendered' ? '✓ rendered' : status === 'skipped' ? '∅ skipped' : `✗ ${word(failureReason ?? 'failed')}`;
  return (n, group) => {
    const letter = group && branchLetter(group, node);
    return letter ? `${group!.step}${letter}→ ${node} ${outcome}` : `${n}→ ${node} ${outcome}`;
  };
}

/** A marker given the next step number and the open parallel group. */
export type StepMarker = (n: number, group: OpenGroup | undefined) => string;

/** The letter of a branch of the group that has not ended yet (a for the first in `∥start`), else undefined. */
export function branchLetter(group: OpenGroup, node: string): string | undefined {
  const i = group.nodes.indexOf(word(node));
  return i >= 0 && !group.ended.has(word(node)) ? String.fromCharCode(97 + i) : undefined;
}

/** `---end TIMESTAMP` or `---error TIMESTAMP msg` (fs "Event Markers"); other statuses have no marker. */
export function statusMarker(status: string, at: string): string | undefined {
  if (status === 'completed') return `---end ${at}`;
  if (status === 'failed') return `---error ${at} run-failed`;
  return undefined;
}

/** Appends a step marker numbered one past the last step; `logs` keeps what was read (the log is read whole without). */
export function appendStepMarker(runDir: string, marker: StepMarker, logs = new VmLogStates()): void {
  const state = logs.read(join(runDir, VM_LOG));
  appendLine(join(runDir, VM_LOG), marker(state.nextStep, state.group));
}

export function appendVmLogLine(runDir: string, line: string): void {
  appendLine(join(runDir, VM_LOG), line);
}
