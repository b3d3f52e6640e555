import { join } from 'node:path';
import { editionLayout, type Edition } from './editions.ts';
import { ProseError } from './errors.ts';
import type { RunRef } from './model.ts';
import { checkName } from './names.ts';
import { isRunId } from './run-id.ts';

// Where the seed layout (filesystem.md "Directory Structure", sqlite.md) puts a project's runs, in one place for
// every backend and checker that names them.

/** `{projectDir}/.prose/runs`. */
export function runsDir(projectDir: string): string {
  return join(projectDir, '.prose', 'runs');
}

/**
 * The directory of a run reference: `{id}` or `{id}/imports/{handle}--{slug}/...`. Every part is checked, so a
 * reference from outside can never point out of `.prose/runs/`.
 */
export function runDir(projectDir: string, run: RunRef): string {
  return runDirUnder(runsDir(projectDir), run);
}

/** The edition-aware twin of runDir: `.prose/runs/...` in v0, `<openprose-root>/runs/...` in the current edition. */
export function editionRunDir(projectDir: string, run: RunRef, edition: Edition): string {
  return runDirUnder(join(projectDir, ...editionLayout(edition).runsDir.split('/')), run);
}

/** A run reference resolved under a runs directory, every part checked (see runDir). */
function runDirUnder(runsRoot: string, run: RunRef): string {
  const parts = typeof run === 'string' ? run.split('/') : [];
  const bad = () =>
    new ProseError('E_NOT_FOUND', `no run ${JSON.stringify(run)}`, {
      location: { field: 'run' },
      hint: 'a run is {YYYYMMDD}-{HHMMSS}-{random6}, or a reference createImport returned',
    });
  if (!isRunId(parts[0])) throw bad();
  for (let i = 1; i < parts.length; i += 2) {
    if (parts[i] !== 'imports' || parts[i + 1] === undefined) throw bad();
    // A handle may not contain "--" (names.ts), so the first "--" splits; the slug may hold more.
    const seg = parts[i + 1]!;
    const cut = seg.indexOf('--');
    if (cut < 0) throw bad();
    // A reference is only ever found, never named by the caller: a part that is not a valid name names no run.
    try {
      checkName('handle', seg.slice(0, cut), 'run');
      checkName('slug', seg.slice(cut + 2), 'run');
    } catch {
      throw bad();
    }
  }
  return join(runsRoot, ...parts);
}

/** The three places an agent's memory can live: its run, its project, its user's home. */
export interface AgentHomes {
  runDir: string;
  projectDir: string;
  homeDir: string;
}

export type FixedAgentScope = 'execution' | 'project' | 'user';

/** filesystem.md / session.md: `{run}/agents/{name}`, `.prose/agents/{name}` or `~/.prose/agents/{name}`. */
export function agentDir(h: AgentHomes, scope: FixedAgentScope, name: string): string {
  if (scope === 'execution') return join(h.runDir, 'agents', name);
  return join(scope === 'project' ? h.projectDir : h.homeDir, '.prose', 'agents', name);
}

/** sqlite.md: the run's `state.db` for execution scope, else `.prose/agents.db` or `~/.prose/agents.db`. */
export function agentDbFile(h: AgentHomes, scope: FixedAgentScope): string {
  if (scope === 'execution') return join(h.runDir, 'state.db');
  return join(scope === 'project' ? h.projectDir : h.homeDir, '.prose', 'agents.db');
}
