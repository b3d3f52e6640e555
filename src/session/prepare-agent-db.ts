import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensureSchema, needsSchema, SqliteFile } from '../sqlite/index.ts';
import type { RunTarget } from './run-target.ts';
import { agentDbOf } from './edition-paths.ts';

/** The agents.db of a project- or user-scope agent (sqlite.md); execution-scope agents live in the run's state.db. */
export function agentDbPath(t: RunTarget, scope: 'project' | 'user'): string {
  return agentDbOf(t, scope);
}

/**
 * sqlite.md: "The VM initializes these databases on first use and provides the correct path to subagents." The VM
 * does this before it hands out instructions, so a first session's INSERT finds its tables. Idempotent.
 */
export async function prepareAgentDb(t: RunTarget, scope: 'execution' | 'project' | 'user'): Promise<void> {
  if (scope === 'execution') return;
  const path = agentDbPath(t, scope);
  mkdirSync(dirname(path), { recursive: true });
  const file = await SqliteFile.open(path);
  try {
    await file.write((db) => {
      if (needsSchema(db)) ensureSchema(db, 'agents', path);
    });
  } finally {
    file.close();
  }
}
