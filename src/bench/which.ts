import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The path of an executable on `PATH`, or undefined: peers are optional and skipped with a reason when absent. */
export function which(name: string, env: Record<string, string | undefined>): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return undefined;
}
