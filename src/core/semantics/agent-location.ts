import type { Capability } from '../capabilities.ts';
import { ProseError } from '../errors.ts';
import type { AgentLocation, RunRef } from '../model.ts';
import { checkName } from '../names.ts';
import type { SemanticsContext } from './context.ts';

/** Scopes a backend must declare before an agent may live there. */
const SCOPE_NEEDS: Partial<Record<AgentLocation['scope'], Capability>> = {
  project: 'project-scope',
  user: 'user-scope',
  custom: 'custom-scope',
};

/** Where a persistent agent lives, checked: its name, its scope's capability, its run or its custom path. */
export async function agentLocation(
  ctx: SemanticsContext,
  a: { agent: string; scope: AgentLocation['scope']; run?: RunRef; path?: string },
): Promise<AgentLocation> {
  checkName('agent', a.agent, 'agent');
  const cap = SCOPE_NEEDS[a.scope];
  if (cap && !ctx.caps.has(cap))
    throw new ProseError('E_UNSUPPORTED', `${a.scope} scope needs the ${cap} capability`, {
      location: { field: 'scope' },
    });
  if (a.scope === 'execution') {
    if (a.run === undefined)
      throw new ProseError('E_INVALID_ARGUMENT', 'execution scope needs "run"', { location: { field: 'run' } });
    await ctx.runOf(a.run);
  }
  if (a.scope === 'custom') checkCustomPath(a.path);
  return {
    agent: a.agent,
    scope: a.scope,
    ...(a.scope === 'execution' ? { run: a.run } : {}),
    ...(a.scope === 'custom' ? { path: a.path } : {}),
  };
}

/**
 * A custom persist path is relative to the project and cannot climb out of it, be absolute on any system
 * (`/x`, `\\x`, `C:x`, `\\\\server\\share`) or point into the backend's own `.prose/` state.
 */
function checkCustomPath(path: string | undefined): void {
  if (typeof path !== 'string' || path.length === 0)
    throw new ProseError('E_INVALID_ARGUMENT', 'custom scope needs "path"', { location: { field: 'path' } });
  const segs = path.split(/[\\/]/).filter((x) => x !== '' && x !== '.');
  if (segs[0] === '.prose') {
    throw new ProseError(
      'E_INVALID_NAME',
      `custom agent path ${JSON.stringify(path)} points into .prose/, where the backend keeps its own state`,
      { location: { field: 'path' } },
    );
  }
  if (
    path.startsWith('/') ||
    path.startsWith('\\') ||
    /^[A-Za-z]:/.test(path) ||
    segs.includes('..') ||
    /[\u0000-\u001f]/.test(path)
  ) {
    throw new ProseError(
      'E_INVALID_NAME',
      `custom agent path ${JSON.stringify(path)} must be relative to the project and may not contain ".."`,
      { location: { field: 'path' } },
    );
  }
}
