import { basename, join } from 'node:path';
import { DEFAULT_DECISIONS } from '../../core/decisions.ts';
import type { Finding, Verifier, VerifyOptions } from '../finding.ts';
import { checkProseDir } from './check-prose-dir.ts';
import { isKind, isRootDir } from '../kit/owned-files.ts';
import { scanEntries, scanTree, sinkReport } from '../kit/scan-tree.ts';
import { DEFAULT_MAX_FILE_BYTES } from '../kit/tree-rules.ts';
import { checkRunDir } from './check-run-dir.ts';
import { FindingSink } from '../kit/finding-sink.ts';
import { RUN_DIR_RULES } from './rules.ts';

const threshold = (opts: VerifyOptions) => opts.attachmentThresholdBytes ?? DEFAULT_DECISIONS.attachmentThresholdBytes;
const maxFileBytes = (opts: VerifyOptions) => opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
// The world-model verifier runs with every run directory (registry.ts) and scans these, at each run level, itself.
const WORLD_MODEL_DIRS = /^(?:imports\/[^/]+\/)*(?:receipts|world-model|state\/world-model)$/;
const ownedByWorldModel = (rel: string) => WORLD_MODEL_DIRS.test(rel);
// The same directories seen from a `.prose/`, inside each `runs/{id}/` (registry.ts adds the world-model per run).
const ownedByRunWorldModel = (rel: string) =>
  /^runs\/[^/]+\//.test(rel) && ownedByWorldModel(rel.replace(/^runs\/[^/]+\//, ''));

/** One run directory, `.prose/runs/{id}/` (or an import on its own): it holds state.md or state.db. */
export const runDirVerifier: Verifier = {
  kind: 'run-dir',
  async detect(path) {
    return (
      isRootDir(path) &&
      (isKind(join(path, 'state.md'), 'file') ||
        isKind(join(path, 'state.db'), 'file') ||
        (isKind(join(path, 'program.prose'), 'file') && !isKind(join(path, 'runs'), 'dir')))
    );
  },
  async verify(path, opts) {
    const out: Finding[] = [];
    // A run outside .../imports/ has a run id for a name; one inside imports/ has {handle}--{slug}.
    const isImport = basename(join(path, '..')) === 'imports';
    const sink = new FindingSink(RUN_DIR_RULES, out);
    scanTree(path, sinkReport(sink), { maxFileBytes: maxFileBytes(opts), skip: ownedByWorldModel });
    await checkRunDir(path, sink, {
      thresholdBytes: threshold(opts),
      maxFileBytes: maxFileBytes(opts),
      homeDir: opts.homeDir,
      isImport,
    });
    return out;
  },
};

/** A `.prose/` directory, or a project directory holding one. */
export const proseDirVerifier: Verifier = {
  kind: 'prose-dir',
  async detect(path) {
    return proseRoot(path) !== undefined;
  },
  async verify(path, opts) {
    const out: Finding[] = [];
    const root = proseRoot(path) ?? path;
    const sink = new FindingSink(RUN_DIR_RULES, out);
    const at = root === path ? sink : sink.at('.prose');
    scanTree(root, sinkReport(at), { maxFileBytes: maxFileBytes(opts), skip: ownedByRunWorldModel });
    if (opts.homeDir !== undefined) {
      const home = join(opts.homeDir, '.prose');
      scanEntries(home, ['agents', 'agents.db'], sinkReport(sink.at('~/.prose')), { maxFileBytes: maxFileBytes(opts) });
    }
    await checkProseDir(root, at, {
      thresholdBytes: threshold(opts),
      maxFileBytes: maxFileBytes(opts),
      homeDir: opts.homeDir,
    });
    return out;
  },
};

/** The `.prose/` directory `path` is or holds, if any. */
export function proseRoot(path: string): string | undefined {
  if (!isRootDir(path) || isKind(join(path, 'state.md'), 'file')) return undefined;
  if (basename(path) === '.prose' || isKind(join(path, 'runs'), 'dir')) return path;
  return isKind(join(path, '.prose'), 'dir') ? join(path, '.prose') : undefined;
}

export { RUN_DIR_RULES, type RunDirRuleId } from './rules.ts';
