import type { SourcePos } from '../source-pos.ts';
import { stepFields } from '../case-yaml.ts';
import { findSqlite3, runMixedWriters } from '../run-mixed-writers.ts';
import { StepFailure, type StepKind } from './step-kind.ts';
import { countWrites, runWorkerStep } from './worker-steps.ts';

/**
 * `ours` worker processes and `cli` loops of the real sqlite3 (one process per INSERT, as the seed's subagents run it)
 * write `each` bindings into one state.db at once while `readers` sqlite3 loops query it; with `kills`, writers of
 * both sides are SIGKILLed that many times (the sqlite-mixed-writers area). Skipped where no sqlite3 is on PATH.
 */
export interface MixedWritersStep {
  kind: 'mixed-writers';
  pos: SourcePos;
  ours: number;
  cli: number;
  each: number;
  readers: number;
  kills: number;
}

export const mixedWritersStep: StepKind<MixedWritersStep> = {
  kind: 'mixed-writers',
  key: 'mixed-writers',
  load(node, { p, field, pos }) {
    const allowed = ['ours', 'cli', 'each', 'readers', 'kills'];
    const { int } = stepFields(p, node, 'mixed-writers', field, pos, allowed);
    return {
      kind: 'mixed-writers',
      pos,
      ours: int('ours', 1),
      cli: int('cli', 1),
      each: int('each', 1),
      readers: int('readers', 0, 0),
      kills: int('kills', 0, 0),
    };
  },
  async run(step, r) {
    // The mixed-writers area needs the real sqlite3; where there is none the case is skipped, saying so.
    const sqlite3 = findSqlite3();
    if ('skip' in sqlite3) throw new StepFailure({ status: 'skipped', reason: sqlite3.skip });
    const budgetMs = r.ctx.stepTimeoutMs * (step.ours + step.cli);
    await runWorkerStep(step, r, { label: 'mixed-writers', budgetMs }, (w) => runMixedWriters(step, w, sqlite3.path));
    countWrites(r, (step.ours + step.cli) * step.each);
  },
  explain: (step) =>
    `mixed-writers: ${step.ours} worker processes of ours and ${step.cli} sqlite3 writers x ${step.each} bindings, ` +
    `${step.readers} sqlite3 readers${step.kills ? `, ${step.kills} kills` : ''} (their messages are not shown)`,
  quick: (step, q) => ({
    ...step,
    ours: Math.min(step.ours, q.writers),
    cli: Math.min(step.cli, q.writers),
    each: Math.min(step.each, q.each),
    readers: Math.min(step.readers, 1),
    kills: Math.min(step.kills, q.kills),
  }),
  implies: () => ['multi-process', 'concurrent-writers', 'layout:sqlite', 'native-sqlite3-beside'],
  workers: 'timed',
  // It keeps sqlite3 processes starting all the time (one per INSERT and per read), so it takes every slot.
  slots: (step) => step.ours + step.cli + step.readers,
};
