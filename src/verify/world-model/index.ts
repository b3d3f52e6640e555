import { join } from 'node:path';
import type { Finding, Verifier } from '../finding.ts';
import { isKind, kindOf, listOwned } from '../kit/owned-files.ts';
import { listReport, scanEntries } from '../kit/scan-tree.ts';
import { DEFAULT_MAX_FILE_BYTES } from '../kit/tree-rules.ts';
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
  async verify(path, opts): Promise<Finding[]> {
    return verifyRunDir(path, '', opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
  },
};

/** One run dir, then each `imports/{handle}--{slug}/` (filesystem.md: imports repeat the whole structure). */
function verifyRunDir(path: string, prefix: string, maxFileBytes: number): Finding[] {
  const out: Finding[] = [];
  if (kindOf(path) === 'missing') return out;
  // The run-dir verifier's scan leaves these to this one (run-dir/index.ts).
  scanEntries(path, ['receipts', 'world-model'], listReport(out), { maxFileBytes });
  scanEntries(join(path, 'state'), ['world-model'], listReport(out, 'state/'), { maxFileBytes });
  const ledgers = checkReceipts(path, out, maxFileBytes);
  checkTree(path, ledgers, out, maxFileBytes);
  const found =
    prefix === ''
      ? out
      : out.map((f) =>
          f.file === undefined ? { ...f, file: prefix.slice(0, -1) } : { ...f, file: `${prefix}${f.file}` },
        );
  const imports = join(path, 'imports');
  if (isKind(imports, 'dir')) {
    for (const name of listOwned(imports)) {
      if (isKind(join(imports, name), 'dir'))
        found.push(...verifyRunDir(join(imports, name), `${prefix}imports/${name}/`, maxFileBytes));
    }
  }
  return found;
}

export { WORLD_MODEL_RULES, type WorldModelRuleId } from './rules.ts';
