import { join } from 'node:path';
import type { Finding, Verifier } from '../finding.ts';
import { isKind, kindOf, readIfOwned } from '../kit/owned-files.ts';
import { listReport, scanTree } from '../kit/scan-tree.ts';
import { DEFAULT_MAX_FILE_BYTES } from '../kit/tree-rules.ts';
import { checkLedger } from './check-ledger.ts';
import { checkWorldModels } from './check-world-models.ts';

/**
 * Verifies a Reactor state directory (`receipts.json` + `world-models/`): version files, receipts, chains,
 * statuses, published.json. Findings name the file, the receipt index or the node, and the rule id.
 */
export const reactorVerifier: Verifier = {
  kind: 'reactor',
  async detect(path: string): Promise<boolean> {
    return isKind(join(path, 'receipts.json'), 'file') && isKind(join(path, 'world-models'), 'dir');
  },
  async verify(path, opts): Promise<Finding[]> {
    const out: Finding[] = [];
    const maxFileBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    scanTree(path, listReport(out), { maxFileBytes });
    const receipts = join(path, 'receipts.json');
    const text = kindOf(receipts) === 'missing' ? undefined : readIfOwned(receipts, maxFileBytes)?.toString('utf8');
    const ledgers = checkLedger(text, out);
    if (isKind(join(path, 'world-models'), 'dir')) checkWorldModels(path, ledgers, out, maxFileBytes);
    return out;
  },
};

export { REACTOR_RULES, type ReactorRuleId } from './rules.ts';
