import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BindingRecord } from '../../core/model.ts';
import { writeFileAtomic } from '../../io/atomic-write.ts';
import { appendStepMarker } from './vm-log.ts';

/**
 * fs "Caller / Gateway Input Files": `world-model/caller/{name}.md` holds `# {name}`, `binding: input`,
 * `source: caller`, `---`, then the value; "When the VM Writes": "Caller input bound", `N→ [input] name ✓`.
 * Written the first time the name is bound as a root input and not changed after: it records what the caller gave
 * at entry, whatever the run binds under the name later. The caller holds the run's lock.
 */
export function writeCallerInput(runDir: string, b: BindingRecord): void {
  const file = join(runDir, 'world-model', 'caller', `${b.name}.md`);
  if (existsSync(file)) return;
  writeFileAtomic(file, `# ${b.name}\n\nbinding: input\nsource: caller\n\n---\n\n${b.value}`);
  appendStepMarker(runDir, (n) => `${n}→ [input] ${b.name} ✓`);
}
