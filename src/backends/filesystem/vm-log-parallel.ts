import { join } from 'node:path';
import { logOf, type EventLog } from '../../core/event-log.ts';
import type { ExecutionEvent } from '../../core/model.ts';
import { appendLine } from './append-line.ts';
import { branchLetter, VM_LOG, word } from './vm-log.ts';
import type { VmLogStates } from './vm-log-state.ts';

/** One letter per branch (`3a→` to `3z→`): a group with more branches has no form in fs "Event Markers". */
const MAX_BRANCHES = 26;

/** The logged group of each append-only log as last worked out, and how many of its events that took in. */
const groups = new WeakMap<EventLog, { length: number; open: string | undefined }>();

/**
 * The id of the parallel group vm.log.md has open after `events`: a group is logged only when none is open (the
 * log has no form for nesting) and it has at most 26 branches; its `parallel-join` closes it. For an append-only
 * log's own list (core/event-log.ts) only the events since the last call are looked at, so a VM event costs the same
 * however long the run is.
 */
export function loggedGroupId(events: readonly ExecutionEvent[]): string | undefined {
  const log = logOf(events);
  const memo = log && groups.get(log);
  let open = memo?.open;
  for (let i = memo?.length ?? 0; i < events.length; i++) open = nextGroup(open, events[i]!);
  if (log) groups.set(log, { length: events.length, open });
  return open;
}

function nextGroup(open: string | undefined, e: ExecutionEvent): string | undefined {
  if (e.type === 'parallel-start' && open === undefined && e.branches.length <= MAX_BRANCHES) return e.id;
  if (e.type === 'parallel-join' && e.id === open) return undefined;
  return open;
}

/**
 * fs "Event Markers" for a parallel event the VM recorded (decisions vm-log-parallel-outcome, current-parallel-markers):
 * `N→ ∥start a,b`; a branch that ends without a receipt having logged it, `Na→ a ✓` or `Na→ a ✗ failed`; at the join,
 * `Na→ a ✗ not-joined` for each branch that never ended, then `N→ ∥done`. `before` is the journal before `event`;
 * the caller holds the run's lock.
 */
export function logParallelEvent(
  runDir: string,
  logs: VmLogStates,
  before: readonly ExecutionEvent[],
  event: ExecutionEvent,
): void {
  const file = join(runDir, VM_LOG);
  const open = loggedGroupId(before);
  if (event.type === 'parallel-start') {
    if (open === undefined && event.branches.length <= MAX_BRANCHES)
      appendLine(file, `${logs.read(file).nextStep}→ ∥start ${event.branches.map(word).join(',')}`);
    return;
  }
  if ((event.type !== 'branch' && event.type !== 'parallel-join') || event.id !== open) return;
  const { group } = logs.read(file);
  if (!group) return; // the log was closed by ---end or changed outside the backend: nothing to add to
  if (event.type === 'branch') {
    const letter = branchLetter(group, event.branch);
    if (letter && event.status !== 'executing')
      appendLine(
        file,
        `${group.step}${letter}→ ${word(event.branch)} ${event.status === 'completed' ? '✓' : '✗ failed'}`,
      );
    return;
  }
  for (const node of group.nodes) {
    const letter = branchLetter(group, node);
    if (letter) appendLine(file, `${group.step}${letter}→ ${node} ✗ not-joined`);
  }
  appendLine(file, `${group.step}→ ∥done`);
}
