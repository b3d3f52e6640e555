import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding, Verifier } from '../finding.ts';
import { checkLedger } from './check-ledger.ts';
import { checkWorldModels } from './check-world-models.ts';

/**
 * Verifies a Reactor state directory (`receipts.json` + `world-models/`): version files, receipts, chains,
 * statuses, published.json. Findings name the file, the receipt index or the node, and the rule id.
 */
export const reactorVerifier: Verifier = {
  kind: 'reactor',
  async detect(path: string): Promise<boolean> {
    try {
      return statSync(join(path, 'receipts.json')).isFile() && statSync(join(path, 'world-models')).isDirectory();
    } catch {
      return false;
    }
  },
  async verify(path: string): Promise<Finding[]> {
    const out: Finding[] = [];
    const receiptsPath = join(path, 'receipts.json');
    const text = existsSync(receiptsPath) ? readFileSync(receiptsPath, 'utf8') : undefined;
    const ledgers = checkLedger(text, out);
    if (existsSync(join(path, 'world-models'))) checkWorldModels(path, ledgers, out);
    return out;
  },
};

export { REACTOR_RULES, type ReactorRuleId } from './rules.ts';
