import { join } from 'node:path';
import { DEFAULT_EDITION, editionLayout, type Edition } from '../core/editions.ts';
import { agentDbFile, type FixedAgentScope } from '../core/seed-layout.ts';

/** What the edition-aware paths need of a run target (run-target.ts), without importing it. */
interface EditionHomes {
  runDir: string;
  projectDir: string;
  homeDir: string;
  edition?: Edition;
}

/** The runs directory of a target's edition: `.prose/runs` (v0) or `<openprose-root>/runs` (current). */
export function runsDirOf(t: { projectDir: string; edition?: Edition }): string {
  return join(t.projectDir, ...editionLayout(t.edition ?? DEFAULT_EDITION).runsDir.split('/'));
}

/**
 * The database of an agent's memory in the target's edition (sqlite.md "Project-Scoped and User-Scoped Agents"):
 * the run's state.db at execution scope; else `.prose/agents.db` and `~/.prose/agents.db` (v0), or
 * `<openprose-root>/state/agents.db` and `~/.agents/prose/state/agents.db` (current).
 */
export function agentDbOf(t: EditionHomes, scope: FixedAgentScope): string {
  const edition = t.edition ?? DEFAULT_EDITION;
  if (edition === DEFAULT_EDITION || scope === 'execution') return agentDbFile(t, scope);
  const l = editionLayout(edition);
  const [base, dir] = scope === 'project' ? [t.projectDir, l.projectAgentsDir] : [t.homeDir, l.userAgentsDir];
  return join(base, ...`${dir}.db`.split('/'));
}

/** The bindings column holding input, output, let or const: `kind` (v0) or `binding` (current "Core Schema"). */
export function bindingKindColumn(t: { edition?: Edition }): string {
  return editionLayout(t.edition ?? DEFAULT_EDITION).sqlColumns.bindingKind;
}
