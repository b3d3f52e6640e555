import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../io/atomic-write.ts';
import { mutant, type Mutant } from '../mutant.ts';

/**
 * A backend that follows the seed state README literally: versions live in state/, "a durable cross-run namespace"
 * under <openprose-root> (.prose/state/world-model/{node}/versions/), not in the run directory. Only the case
 * labelled with decision wm-version-store may kill it.
 */
export const WORLD_MODEL_MUTANTS: Mutant[] = [
  mutant(
    'world-model-versions-cross-run',
    'world-model versions are kept in .prose/state/ across runs, not in the run directory',
    {
      store: (base, env) => {
        const real = base.worldModel!;
        const file = (node: string, address: string) =>
          join(env.projectDir, '.prose', 'state', 'world-model', node, 'versions', `${address.replace(':', '_')}.bin`);
        return {
          worldModel: Object.assign(Object.create(real) as typeof real, {
            async writeVersion(_run: string, node: string, address: string, bytes: Uint8Array): Promise<void> {
              if (!existsSync(file(node, address))) writeFileAtomic(file(node, address), bytes);
            },
            async readVersion(_run: string, node: string, address: string): Promise<Uint8Array | undefined> {
              return existsSync(file(node, address)) ? new Uint8Array(readFileSync(file(node, address))) : undefined;
            },
          }),
        };
      },
    },
  ),
];
