import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding, Verifier } from '../finding.ts';
import { isKind } from '../kit/is-kind.ts';
import { checkReceipts } from './check-receipts.ts';
import { checkTree } from './check-tree.ts';

/**
 * Verifies the world-model of a run directory in the spec layout (`.prose/runs/{id}/`): `.version` files hash to
 * the OPWM1 of their node directory, stored versions are exact OPWM1 named by their hash, receipts re-hash and
 * chain per node, statuses obey their rules, and the published version agrees with the last non-failed receipt.
 * Findings name the file (relative to the run dir), the receipt index (0-based; `line` is 1-based) or node, and the rule.
 */
export const worldModelVerifier: Verifier = {
  kind: 'world-model',
  async detect(path: string): Promise<boolean> {
    return isKind(join(path, 'receipts'), 'dir') || isKind(join(path, 'world-model'), 'dir');
  },
  async verify(path: string): Promise<Finding[]> {
    return verifyRunDir(path, '');
  },
};

/** One run dir, then each `imports/{handle}--{slug}/` (filesystem.md: imports repeat the whole structure). */
function verifyRunDir(path: string, prefix: string): Finding[] {
  const out: Finding[] = [];
  if (!existsSync(path)) return out;
  const ledgers = checkReceipts(path, out);
  checkTree(path, ledgers, out);
  const found =
    prefix === ''
      ? out
      : out.map((f) =>
          f.file === undefined ? { ...f, file: prefix.slice(0, -1) } : { ...f, file: `${prefix}${f.file}` },
        );
  const imports = join(path, 'imports');
  if (isKind(imports, 'dir')) {
    for (const name of readdirSync(imports).sort()) {
      if (isKind(join(imports, name), 'dir'))
        found.push(...verifyRunDir(join(imports, name), `${prefix}imports/${name}/`));
    }
  }
  return found;
}

export { WORLD_MODEL_RULES, type WorldModelRuleId } from './rules.ts';
