import { backendOfRun } from '../edition-runs.ts';
import type { SavedReport } from './read-report.ts';

/** What a report judged one backend in: its editions (joined, in the report's order) and its first header's line. */
export interface JudgedEditions {
  editions: string;
  line: number;
}

/** Backend (its name without `@EDITION`) -> the editions a report judged it in. */
export function editionsByBackend(r: SavedReport): Map<string, JudgedEditions> {
  const out = new Map<string, JudgedEditions>();
  for (const run of r.runs) {
    const backend = backendOfRun(run.header.backend.name, run.header.edition);
    const seen = out.get(backend);
    out.set(backend, {
      editions: seen ? `${seen.editions} and ${run.header.edition}` : run.header.edition,
      line: seen?.line ?? run.line,
    });
  }
  return out;
}

/** The backends two reports judged in different editions, with both sides' editions. */
export function editionChanges(
  oldReport: SavedReport,
  newReport: SavedReport,
): { backend: string; old: string; new: string }[] {
  const before = editionsByBackend(oldReport);
  return [...editionsByBackend(newReport)].flatMap(([backend, now]) => {
    const was = before.get(backend);
    return was && was.editions !== now.editions ? [{ backend, old: was.editions, new: now.editions }] : [];
  });
}
