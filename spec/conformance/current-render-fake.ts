import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Actor } from '../../src/core/actor.ts';
import type { BackendFactory } from '../../src/core/backend.ts';
import type { OpArgs, OpName, OpResults } from '../../src/core/ops.ts';

/**
 * A small stand-in for a current-edition directory backend, for the render cases only. The selftest's mutants are
 * built on the v0 store (src/selftest/mutant.ts), so this wraps one (the control or a mutant) and mirrors each VM commit and failed render into `runs/{id}/world-model/{node}/` (+ `.version`)
 * and `runs/{id}/receipts/{node}.jsonl`, the files session.md's reply names: enough current layout for the render checker to read.
 */
export function currentRenderFake(base: BackendFactory): BackendFactory {
  return {
    ...base,
    name: `${base.name}+current-render-fake`,
    edition: 'current',
    capabilities: [...base.capabilities.filter((c) => c !== 'edition:v0'), 'edition:current'],
    async open(env) {
      const real = await base.open(env);
      return {
        ...real,
        close: () => real.close(),
        async call<K extends OpName>(op: K, args: OpArgs[K], actor: Actor): Promise<OpResults[K]> {
          const result = await real.call(op, args, actor);
          const a = args as { run?: string; node?: string; files?: Record<string, string> };
          if ((op === 'commitWorldModel' || op === 'failRender') && a.run && a.node) {
            const run = join(env.projectDir, 'runs', a.run);
            const r = result as { status: string; version?: string | null };
            if (r.status === 'rendered' && a.files) {
              for (const [f, text] of Object.entries(a.files))
                writeFileAtPath(join(run, 'world-model', a.node, f), text);
              writeFileAtPath(join(run, 'world-model', a.node, '.version'), `${r.version}\n`);
            }
            mkdirSync(join(run, 'receipts'), { recursive: true });
            appendFileSync(
              join(run, 'receipts', `${a.node}.jsonl`),
              `${JSON.stringify({ node: a.node, status: r.status })}\n`,
            );
          }
          return result;
        },
      };
    },
  };
}

function writeFileAtPath(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}
