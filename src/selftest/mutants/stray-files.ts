import { join } from 'node:path';
import { DEFAULT_EDITION } from '../../core/editions.ts';
import { editionRunDir } from '../../core/seed-layout.ts';
import type { WorldModelStore } from '../../core/store.ts';
import { writeFileAtomic } from '../../io/atomic-write.ts';
import { mutant, type Mutant } from '../mutant.ts';

/**
 * Files left where the spec defines a directory's content completely. The store never lists world-model/{node}/
 * (it reads a version's bytes), so only a layout step that judges the whole directory, or its hash against
 * .version, sees the leftover.
 */
export const STRAY_FILE_MUTANTS: Mutant[] = [
  mutant(
    'world-model-temp-kept',
    'publishing a world-model node leaves its temp file (.publish.tmp) beside the published files',
    {
      store: (base, env) => {
        const real = base.worldModel!;
        const publish: WorldModelStore['publish'] = async (run, node, address) => {
          await real.publish(run, node, address);
          const dir = join(editionRunDir(env.projectDir, run, env.edition ?? DEFAULT_EDITION), 'world-model', node);
          writeFileAtomic(join(dir, '.publish.tmp'), `${address}\n`);
        };
        return { worldModel: Object.assign(Object.create(real) as WorldModelStore, { publish }) };
      },
    },
  ),
];
