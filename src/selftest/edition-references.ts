import { filesystemFactory } from '../backends/filesystem/index.ts';
import { sqliteFactory } from '../backends/sqlite/index.ts';
import type { BackendFactory } from '../core/backend.ts';
import { DEFAULT_EDITION, type Edition } from '../core/editions.ts';
import type { Suite } from '../conformance/case-types.ts';
import { referenceOf, type Mutant } from './mutant.ts';
import { pgMemFactory } from './postgres-mutant.ts';

/** The unmutated backend each kind of mutant is made of, as the spec string a case worker rebuilds it from. */
const REFERENCES: Record<NonNullable<Mutant['reference']>, () => BackendFactory> = {
  filesystem: () => ({ ...filesystemFactory, spec: 'filesystem' }),
  sqlite: () => ({ ...sqliteFactory, spec: 'sqlite' }),
  postgres: () => pgMemFactory('postgres', 'PostgreSQL schema openprose on pg-mem (in memory, one database per case)'),
};

/** One reference run a mutant of an edition besides v0 needs: its backend in that edition, on the cases judging it. */
export interface EditionReference {
  edition: Edition;
  factory: BackendFactory;
  suite: Suite;
}

/**
 * The reference runs of the editions besides v0 that the chosen mutants are judged in: the unmutated backend each is
 * a mutant of (filesystem, sqlite, or postgres on pg-mem) in that edition, named as `referenceOf` keys its results,
 * on the areas those mutants name (every area when one names none). The v0 reference is the full suite, as before.
 */
export function editionReferences(suite: Suite, chosen: readonly Mutant[]): EditionReference[] {
  const byReference = new Map<string, Mutant[]>();
  for (const m of chosen) {
    if ((m.edition ?? DEFAULT_EDITION) === DEFAULT_EDITION) continue;
    byReference.set(referenceOf(m), [...(byReference.get(referenceOf(m)) ?? []), m]);
  }
  return [...byReference].map(([name, ms]) => {
    const edition = ms[0]!.edition!;
    const base = REFERENCES[ms[0]!.reference ?? 'filesystem']();
    const areas = ms.every((m) => m.areas) ? new Set(ms.flatMap((m) => m.areas!)) : undefined;
    const cases = areas ? suite.cases.filter((c) => areas.has(c.area)) : suite.cases;
    return {
      edition,
      factory: { ...base, name, edition },
      suite: { ...suite, cases },
    };
  });
}
