import { filesystemFactory } from '../backends/filesystem/index.ts';
import type { Decisions } from '../core/decisions.ts';
import { DEFAULT_EDITION } from '../core/editions.ts';
import type { Suite } from '../conformance/case-types.ts';
import { runSuite } from '../conformance/run-suite.ts';
import { inEditionOf, type Mutant } from './mutant.ts';
import { CONTROL } from './mutants/index.ts';

const silent = { header() {}, result() {}, footer() {} };

/** The decisions a mutant is judged under: the run's, with the readings it pins over them (before-render, say). */
export function judgedUnder(m: Mutant, decisions: Decisions): Decisions {
  return m.pinned ? { ...decisions, ...m.pinned } : decisions;
}

/**
 * The cases both the unmutated filesystem backend and the control (the mutant harness with no bug) pass in the
 * mutant's edition under the readings it pins, on its areas: the shared reference ran under the defaults, where a
 * case of another reading is skipped and so kills nothing. Run where the mutant is judged (a lane too), so no
 * reference of every pinned set is carried around.
 */
export async function pinnedGood(m: Mutant, suite: Suite, decisions: Decisions): Promise<Set<string>> {
  const edition = m.edition ?? DEFAULT_EDITION;
  const cases = m.areas ? suite.cases.filter((c) => m.areas!.includes(c.area)) : suite.cases;
  const reference = { ...filesystemFactory, name: `filesystem@${edition}+pinned`, spec: 'filesystem', edition };
  const control = inEditionOf(CONTROL, edition).factory;
  const results = await runSuite({
    suite: { ...suite, cases },
    factories: [reference, control],
    decisions,
    filter: { areas: [], ids: [] },
    listener: silent,
  });
  // A case the bug-free mutant harness fails too would kill for the harness's sake, not the bug's: it is left out.
  const passedOn = (name: string) =>
    new Set(results.filter((r) => r.backend === name && r.outcome.status === 'passed').map((r) => r.id));
  const onControl = passedOn(control.name);
  return new Set([...passedOn(reference.name)].filter((id) => onControl.has(id)));
}
