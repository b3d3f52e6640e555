import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { FsCurrentStore } from '../../backends/filesystem/current-store.ts';
import { FsStore } from '../../backends/filesystem/fs-store.ts';
import { initialStateMd } from '../../backends/filesystem/state-md.ts';
import { appendStepMarker } from '../../backends/filesystem/vm-log.ts';
import type { AgentLocation, BindingRecord, RunRecord, RunRef } from '../../core/model.ts';
import { editionRunDir } from '../../core/seed-layout.ts';
import type { StateStore, WorldModelStore } from '../../core/store.ts';
import { writeFileAtomic } from '../../io/atomic-write.ts';
import { mutant, pass, type Mutant } from '../mutant.ts';

type Files = Record<string, string>;
const CURRENT = { edition: 'current', areas: ['current-layout'] } as const;

/**
 * Bugs in where the current edition keeps things (fs "Directory Structure", "workspace/ — Private Render Scratch",
 * "Memory Scoping"): mostly a v0 habit carried into the current tree. Judged in the current edition, on its layout
 * cases alone.
 */
export const CURRENT_LAYOUT_MUTANTS: Mutant[] = [
  mutant('workspace-fingerprinted', "a commit's address covers the node's workspace files beside its own", {
    ...CURRENT,
    intercept: async (op, args, actor, ctx) => {
      const key = `${String(args.run)} ${String(args.node)}`;
      if (op === 'writeWorkspace') WORKSPACES.set(key, args.files as Files);
      if (op !== 'commitWorldModel') return pass(op, args, actor, ctx);
      return pass(op, { ...args, files: { ...WORKSPACES.get(key), ...(args.files as Files) } }, actor, ctx);
    },
  }),
  mutant(
    'current-versions-per-run',
    'in the current edition versions are kept per run (runs/{id}/state/world-model/{node}/versions/), not in the durable state/',
    {
      ...CURRENT,
      store: (base, env) => {
        const file = (run: string, node: string, address: string) =>
          join(
            editionRunDir(env.projectDir, run, 'current'),
            'state',
            'world-model',
            node,
            'versions',
            binName(address),
          );
        return worldModelWith(base, {
          async writeVersion(run, node, address, bytes) {
            if (!existsSync(file(run, node, address))) writeFileAtomic(file(run, node, address), bytes);
          },
          async readVersion(run, node, address) {
            const f = file(run, node, address);
            return existsSync(f) ? new Uint8Array(readFileSync(f)) : undefined;
          },
        });
      },
    },
  ),
  mutant(
    'durable-published-first-only',
    "the durable state/world-model/{node}/published/ is written on the node's first commit only, like versions/",
    {
      ...CURRENT,
      store: (base, env) =>
        worldModelWith(base, {
          async publish(run, node, address) {
            const dir = join(env.projectDir, 'state', 'world-model', node, 'published');
            const had = existsSync(dir);
            if (had) renameSync(dir, `${dir}.kept`);
            await base.worldModel!.publish(run, node, address);
            if (!had) return;
            rmSync(dir, { recursive: true, force: true });
            renameSync(`${dir}.kept`, dir);
          },
        }),
    },
  ),
  mutant('state-md-in-current-run', 'a current-edition run directory also gets the v0 state.md', {
    ...CURRENT,
    base: (env, d) => new V0FileToo(env.projectDir, env.homeDir, d, 'state.md'),
  }),
  mutant('program-prose-in-current-run', 'a current-edition run directory also gets the v0 program.prose', {
    ...CURRENT,
    base: (env, d) => new V0FileToo(env.projectDir, env.homeDir, d, 'program.prose'),
  }),
  mutant(
    'current-agents-in-prose-dir',
    'in the current edition project-scoped agents are kept in .prose/agents/ (the v0 place), not state/agents/',
    {
      ...CURRENT,
      store: (base, env) => {
        const v0 = new FsStore(env.projectDir, env.homeDir, env.decisions);
        const pick = (loc: AgentLocation) => (loc.scope === 'project' ? v0 : base);
        return {
          writeMemory: (loc, memory) => pick(loc).writeMemory(loc, memory),
          readMemory: (loc) => pick(loc).readMemory(loc),
          appendSegment: (loc, segment) => pick(loc).appendSegment(loc, segment),
          listSegments: (loc) => pick(loc).listSegments(loc),
        };
      },
    },
  ),
  mutant(
    'caller-input-rewritten',
    'every bind of a root input rewrites world-model/caller/{name}.md and logs another [input] marker, not only the first',
    { ...CURRENT, base: (env, d) => new CallerInputEachBind(env.projectDir, env.homeDir, d) },
  ),
];

/** The reference world-model store with some methods replaced (`this` in the others is the mutant store). */
function worldModelWith(base: FsStore, methods: Partial<WorldModelStore>): Partial<StateStore> {
  return { worldModel: Object.assign(Object.create(base.worldModel!) as WorldModelStore, methods) };
}

/** A version's file name, as the reference names it (`:` is not a portable file-name character). */
const binName = (address: string) => `${address.replace(':', '_')}.bin`;

/** The last files each (run, node) wrote to its workspace, as the buggy commit sees them (one per process). */
const WORKSPACES = new Map<string, Files>();

/** Writes the caller input file and its marker on every bind of a root input, over the one written before. */
class CallerInputEachBind extends FsCurrentStore {
  override async writeBinding(run: RunRef, b: BindingRecord, attach: boolean): Promise<{ location: string }> {
    const written = await FsStore.prototype.writeBinding.call(this, run, b, attach);
    if (b.kind !== 'input' || b.executionId !== null) return written;
    const dir = this.paths.runDir(run);
    writeFileAtomic(
      join(dir, 'world-model', 'caller', `${b.name}.md`),
      `# ${b.name}\n\nbinding: input\nsource: caller\n\n---\n\n${b.value}`,
    );
    appendStepMarker(dir, (n) => `${n}→ [input] ${b.name} ✓`);
    return written;
  }
}

/** The reference current tree, plus one v0 file beside root.prose.md and vm.log.md. */
class V0FileToo extends FsCurrentStore {
  constructor(
    projectDir: string,
    homeDir: string,
    decisions: ConstructorParameters<typeof FsCurrentStore>[2],
    private readonly extra: 'state.md' | 'program.prose',
  ) {
    super(projectDir, homeDir, decisions);
  }

  protected override layRunFiles(dir: string, rec: RunRecord): void {
    super.layRunFiles(dir, rec);
    if (this.extra === 'program.prose') return writeFileAtomic(join(dir, 'program.prose'), rec.program);
    writeFileAtomic(join(dir, 'state.md'), initialStateMd(rec));
  }
}
