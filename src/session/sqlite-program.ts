import { statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ProseError } from '../core/errors.ts';

/** `sqlite3` when it is on PATH (or forced), else the shim: the instructions must run on the machine at hand. */
export function sqliteProgram(which: string, env: Record<string, string | undefined>): string {
  if (which === 'sqlite3') return 'sqlite3';
  if (which === 'prose-state') return 'prose-state sqlite3';
  if (which !== 'auto')
    throw new ProseError('E_USAGE', `--sqlite3 must be auto, sqlite3 or prose-state, got ${JSON.stringify(which)}`);
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      if (statSync(join(dir, 'sqlite3')).isFile()) return 'sqlite3';
    } catch {
      /* not here */
    }
  }
  return 'prose-state sqlite3';
}
