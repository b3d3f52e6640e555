import { existsSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { DEFAULT_EDITION, type Edition } from '../core/editions.ts';

/**
 * The edition of a run directory, read from its layout (core/editions.ts): `<openprose-root>/runs/{id}/` with
 * vm.log.md is current; `.prose/runs/{id}/` (or anything else) is v0. A run id that is no directory (postgres) is v0.
 */
export function runEdition(runPath: string): Edition {
  const dir = resolve(runPath);
  if (!existsSync(dir)) return DEFAULT_EDITION;
  if (existsSync(resolve(dir, 'vm.log.md'))) return 'current';
  const parent = dirname(dir);
  return basename(parent) === 'runs' && basename(dirname(parent)) !== '.prose' ? 'current' : DEFAULT_EDITION;
}
