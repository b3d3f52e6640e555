import { basename, dirname, join } from 'node:path';
import { DEFAULT_DECISIONS } from '../../core/decisions.ts';
import { looksLikeRun } from '../edition/tree-edition.ts';
import { isKind } from '../kit/owned-files.ts';
import type { Finding, Verifier } from '../finding.ts';
import { scanTree, sinkReport } from '../kit/scan-tree.ts';
import { DEFAULT_MAX_FILE_BYTES } from '../kit/tree-rules.ts';
import { checkCurrentRun } from './check-current-run.ts';
import { checkCurrentRoot, isCurrentRoot, isCurrentRun } from './current-root.ts';
import { RunSink } from './run-sink.ts';

/**
 * A run directory of the current edition (docs/editions.md): `<openprose-root>/runs/{id}/` holding vm.log.md and
 * root.prose.md, and no state.md; or an `<openprose-root>` whose runs/ holds such runs. Findings name files
 * relative to the path verified.
 */
export const currentRunVerifier: Verifier = {
  kind: 'current-run',
  async detect(path) {
    return isCurrentRun(path) || isCurrentRoot(path);
  },
  async verify(path, opts) {
    const out: Finding[] = [];
    const maxFileBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    const sink = new RunSink(out, maxFileBytes);
    // Each link, special file, bad name and over-cap file once, up front; the checks below read none of them.
    scanTree(path, sinkReport(sink), { maxFileBytes });
    // A root by its shape, not its runs: `--edition current` may name one whose runs are v0 or that holds only state/.
    if (!looksLikeRun(path) && (isKind(join(path, 'runs'), 'dir') || isKind(join(path, 'state'), 'dir')))
      await checkCurrentRoot(path, sink, {
        thresholdBytes: opts.attachmentThresholdBytes ?? DEFAULT_DECISIONS.attachmentThresholdBytes,
      });
    else checkCurrentRun(path, sink, basename(dirname(path)) === 'imports');
    return out;
  },
};

/**
 * `verifier` (the prose-dir one, which claims any directory holding runs/) declining a current `<openprose-root>`,
 * so that detection reaches current-run without changing the order of the kinds.
 */
export function yieldToCurrentRoot(verifier: Verifier): Verifier {
  return { ...verifier, detect: async (path) => !isCurrentRoot(path) && (await verifier.detect(path)) };
}

export { checkCurrentRun } from './check-current-run.ts';
export { CURRENT_RUN_RULES, CURRENT_RUN_OWN_RULES, SHARED_RULE_IDS, type CurrentRunRuleId } from './rules.ts';
