import { basename, join } from 'node:path';
import type { Edition } from '../../core/editions.ts';
import { isKind, isRootDir, listOwned } from '../kit/owned-files.ts';

/** A run directory, or a tree holding runs (`.prose/`, `<openprose-root>`); `sql-run`: a run whose state is a state.db. */
export type TreeShape = 'run' | 'root' | 'sql-run';

/**
 * What the tree says of its edition (docs/editions.md "Telling a tree's edition"): the marker files decide, not the
 * path. `refused` is a tree whose markers contradict each other or are missing; `none` is no tree of the state spec
 * (a file, a Reactor directory), left to the verifiers' own detection.
 */
export type TreeEdition =
  { edition: Edition; shape: TreeShape; evidence: string } | { refused: string; shape: TreeShape } | { none: true };

// v0 fs "Directory Structure" (state.md) and v0 sqlite "Database Location" (state.db); fs "vm.log.md".
const V0_MARKERS = ['state.md', 'state.db'];
const CURRENT_MARKER = 'vm.log.md';
// Files any run of either edition holds: a directory with one of these and no marker is a run of no edition.
const RUN_FILES = ['root.prose.md', 'program.prose', 'compiled-intent.json'];

interface Markers {
  v0: string[];
  current: boolean;
  /** state.db beside root.prose.md and no program.prose: a SQLite run of the current edition (docs/editions.md). */
  currentSql: boolean;
  runLike: boolean;
}

function markersOf(dir: string): Markers {
  const has = (f: string) => isKind(join(dir, f), 'file');
  const currentSql = has('state.db') && has('root.prose.md') && !has('program.prose') && !has('state.md');
  const v0 = V0_MARKERS.filter((m) => has(m) && !(currentSql && m === 'state.db'));
  const current = has(CURRENT_MARKER);
  return { v0, current, currentSql, runLike: currentSql || v0.length > 0 || current || RUN_FILES.some(has) };
}

/** A SQLite run of the current edition: state.db beside root.prose.md, no program.prose nor state.md (sqlite.md). */
export function isCurrentSqlRun(dir: string): boolean {
  return isKind(dir, 'dir') && markersOf(dir).currentSql;
}

/** True when `dir` holds a run's files (either edition's marker, root.prose.md, program.prose, compiled-intent.json). */
export function looksLikeRun(dir: string): boolean {
  return markersOf(dir).runLike;
}

const ASK = 'name the edition with --edition v0 or --edition current';

/** The edition of the tree at `path`; never throws. */
export function treeEdition(path: string): TreeEdition {
  if (!isRootDir(path)) return { none: true };
  const m = markersOf(path);
  const hasRuns = isKind(join(path, 'runs'), 'dir');
  if (m.v0.length > 0 && m.current)
    return { refused: `it holds both ${m.v0[0]} (v0) and ${CURRENT_MARKER} (current): ${ASK}`, shape: 'run' };
  if (m.current) return { edition: 'current', shape: 'run', evidence: `${CURRENT_MARKER} in the run directory` };
  if (m.v0.length > 0) return { edition: 'v0', shape: 'run', evidence: `${m.v0[0]} in the run directory` };
  if (m.currentSql)
    return {
      edition: 'current',
      shape: 'sql-run',
      evidence: 'state.db beside root.prose.md, no program.prose: a SQLite run of the current edition',
    };
  if (m.runLike && !hasRuns)
    return {
      refused: `it looks like a run but holds neither state.md (v0) nor ${CURRENT_MARKER} (current): ${ASK}`,
      shape: 'run',
    };
  if (basename(path) === '.prose') return { edition: 'v0', shape: 'root', evidence: 'a .prose/ directory' };
  if (isKind(join(path, '.prose'), 'dir'))
    return { edition: 'v0', shape: 'root', evidence: 'a project holding .prose/' };
  if (hasRuns) return rootOfRuns(path);
  if (isKind(join(path, 'state', 'world-model'), 'dir') || isKind(join(path, 'state', 'agents'), 'dir'))
    return { edition: 'current', shape: 'root', evidence: 'an <openprose-root> holding durable state/ and no runs/' };
  return { none: true };
}

/** A directory holding runs/ and no .prose/: its runs' markers decide (a .prose/ copied under another name is v0). */
function rootOfRuns(path: string): TreeEdition {
  const current: { name: string; marker: string }[] = [];
  const v0: string[] = [];
  let names: string[] = [];
  try {
    names = listOwned(join(path, 'runs'));
  } catch {
    // unlistable: the verifier reports it
  }
  for (const name of names) {
    const m = markersOf(join(path, 'runs', name));
    if (m.v0.length > 0 && m.current)
      return {
        refused: `runs/${name} holds both ${m.v0[0]} (v0) and ${CURRENT_MARKER} (current): ${ASK}`,
        shape: 'root',
      };
    // A SQLite run of the current edition is a current run as much as a filesystem one (issue #33).
    if (m.current) current.push({ name, marker: CURRENT_MARKER });
    else if (m.currentSql) current.push({ name, marker: 'state.db beside root.prose.md' });
    else if (m.v0.length > 0) v0.push(name);
  }
  const first = current[0];
  if (first && v0.length > 0)
    return {
      refused: `runs/ holds v0 runs (${v0[0]}: ${markersOf(join(path, 'runs', v0[0]!)).v0[0]}) and current runs (${first.name}: ${first.marker}): ${ASK}`,
      shape: 'root',
    };
  if (first)
    return { edition: 'current', shape: 'root', evidence: `an <openprose-root>: runs/${first.name}/${first.marker}` };
  if (v0.length > 0)
    return { edition: 'v0', shape: 'root', evidence: `runs/ of v0 runs (runs/${v0[0]}/state.md or state.db)` };
  if (isKind(join(path, 'state'), 'dir'))
    return { edition: 'current', shape: 'root', evidence: 'an <openprose-root>: runs/ and state/, no .prose/' };
  // What prose-dir always claimed: a directory holding runs/ (none of them a run yet) is read as a .prose/.
  return {
    edition: 'v0',
    shape: 'root',
    evidence: 'runs/ holding no run of either edition, read as a .prose/ directory',
  };
}
