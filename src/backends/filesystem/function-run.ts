import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BindingRecord } from '../../core/model.ts';
import { checkName } from '../../core/names.ts';
import { writeFileAtomic } from '../../io/atomic-write.ts';

/**
 * A standalone function run (prose.md "Single-Function Runs"): its envelope's compiled intent is the minimal
 * activation record `{"kind": "function", "name": "<function>", ...}` (decisions compiled-intent-required,
 * current-function-runs). The function's name, or undefined for a mounted run or one with no envelope yet.
 */
export function activatedFunction(runDir: string): string | undefined {
  let record: unknown;
  try {
    record = JSON.parse(readFileSync(join(runDir, 'compiled-intent.json'), 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  if (typeof record !== 'object' || record === null || (record as { kind?: unknown }).kind !== 'function')
    return undefined;
  // The name becomes the directory bindings/{function}/, so it is held to the rules of a binding's file name.
  return checkName('binding', (record as { name?: unknown }).name, 'compiledIntent.name');
}

/**
 * prose.md "The Copy-on-Return Mechanism": when the function returns, each declared output is copied to
 * `bindings/{function}/{output}.md`. The outputs are the run's root bindings of kind output; the file holds the
 * value as the render wrote it. The caller holds the run's lock.
 */
export function copyOnReturn(runDir: string, fn: string, bindings: readonly BindingRecord[]): void {
  for (const b of bindings)
    if (b.kind === 'output' && b.executionId === null)
      writeFileAtomic(join(runDir, 'bindings', fn, `${b.name}.md`), b.value);
}
