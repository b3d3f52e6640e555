import type { RunHeader } from '../run-suite.ts';

/** The header's word that a run is quick (test --quick): said by every human-read report, so none passes for a full run. */
export function quickNote(h: RunHeader): string | undefined {
  return h.quick
    ? `QUICK run (--quick): crash and mixed-writers steps capped at ${h.quick.kills} kills, ` +
        `worker steps at ${h.quick.writers} writers of ${h.quick.each}, crash-states at ${h.quick.states} states; not a full run`
    : undefined;
}

/** The last footer's word that a run stopped early (test --bail, test --deadline), or undefined. */
export function cutShortNote(extra: Record<string, unknown>): string | undefined {
  const c = extra.cutShort as { by: string; notRun: number; deadlineMs?: number } | undefined;
  if (!c) return undefined;
  return c.by === 'deadline'
    ? `cut short by --deadline after ${(c.deadlineMs ?? 0) / 1000} s: ${c.notRun} cases did not run or finish`
    : `cut short by --${c.by} at the first failure: ${c.notRun} cases did not run`;
}

/** A footer's measured counts (kills survived, writes), without the notes beside them. */
export function measuredOf(extra: Record<string, unknown>): [string, number][] {
  return Object.entries(extra).filter((e): e is [string, number] => typeof e[1] === 'number');
}
