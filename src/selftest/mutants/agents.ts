import { runsDir } from '../../core/seed-layout.ts';
import { mutant, pass, type Mutant } from '../mutant.ts';

/** Persistent agent bugs: scopes and memory. */
export const AGENT_MUTANTS: Mutant[] = [
  mutant('project-memory-in-run', 'project-scope memory is kept inside the run, so the next run does not see it', {
    intercept: async (op, args, actor, ctx) => {
      if (
        (op === 'writeMemory' || op === 'readMemory' || op === 'appendSegment' || op === 'listSegments') &&
        args.scope === 'project'
      ) {
        // The first run it was used in keeps it: a later run asks its own run and finds nothing.
        const runs = (await import('node:fs')).readdirSync(runsDir(ctx.env.projectDir)).sort();
        return pass(op, { ...args, scope: 'execution', run: runs[runs.length - 1] }, actor, ctx);
      }
      return pass(op, args, actor, ctx);
    },
  }),
  mutant('user-scope-in-project', 'user-scope memory is written under the project instead of the home directory', {
    store: (base) => ({
      writeMemory: (loc, m) => base.writeMemory(loc.scope === 'user' ? { ...loc, scope: 'project' } : loc, m),
      readMemory: (loc) => base.readMemory(loc.scope === 'user' ? { ...loc, scope: 'project' } : loc),
    }),
  }),
  mutant('memory-appends', 'writeMemory appends to the memory instead of replacing it', {
    store: (base) => ({
      writeMemory: async (loc, m) => base.writeMemory(loc, ((await base.readMemory(loc)) ?? '') + m),
    }),
  }),
  mutant('segments-unsorted', 'listSegments returns segments newest first', {
    store: (base) => ({ listSegments: async (loc) => (await base.listSegments(loc)).reverse() }),
  }),
  mutant('import-shares-parent', 'an import writes into its parent run instead of a nested run', {
    store: () => ({ createImport: async (parent) => parent }),
  }),
];
