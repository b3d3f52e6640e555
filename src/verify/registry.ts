import type { Edition } from '../core/editions.ts';
import { ProseError } from '../core/errors.ts';
import { checkAppendOnly } from './current-run/append-only.ts';
import { currentRunVerifier, yieldToCurrentRoot } from './current-run/index.ts';
import { chooseVerifier, type Candidate } from './edition/choose-verifier.ts';
import type { EditionVerdict } from './edition/edition-verdict.ts';
import type { Finding, Verifier, VerifyOptions } from './finding.ts';
import { DEFAULT_MAX_FILE_BYTES } from './kit/tree-rules.ts';
import { reactorVerifier } from './reactor/index.ts';
import { proseDirVerifier, proseRoot, runDirVerifier } from './run-dir/index.ts';
import { currentSqlRunVerifier, stateDbEditionOf, stateDbVerifier } from './state-db/index.ts';
import { transcriptEditionOf, transcriptVerifier } from './transcript/index.ts';
import { withRunWorldModels } from './world-model/every-run.ts';
import { worldModelVerifier } from './world-model/index.ts';

/** A run directory in the newer spec layout also holds a world-model and receipts: both are checked. */
const runDirAndWorldModel: Verifier = {
  kind: runDirVerifier.kind,
  detect: (path) => runDirVerifier.detect(path),
  verify: async (path, opts) => [
    ...(await runDirVerifier.verify(path, opts)),
    ...((await worldModelVerifier.detect(path)) ? await worldModelVerifier.verify(path, opts) : []),
  ],
};

/** A v0 `.prose/` (or a project holding one): each run's world-model too, as `verify RUN` checks it. */
const proseDirAndWorldModels = withRunWorldModels(proseDirVerifier, proseRoot);

/**
 * Every verifier with the edition it judges, in the order `detect` is tried for state the marker files leave open:
 * the most specific first (a run directory before a `.prose/` directory that holds runs; a SQLite file before a text
 * transcript).
 */
const CANDIDATES: readonly Candidate[] = [
  // sql-run: `--edition v0` on a SQLite run of the current edition reads the directory by the v0 rules.
  { verifier: runDirAndWorldModel, edition: 'v0', shapes: ['run', 'sql-run'], note: 'a v0 run directory' },
  {
    verifier: yieldToCurrentRoot(proseDirAndWorldModels),
    edition: 'v0',
    shapes: ['root'],
    note: 'a v0 .prose/ directory',
  },
  {
    verifier: stateDbVerifier,
    editions: ['v0', 'current'],
    tell: stateDbEditionOf,
    note: 'a SQLite file, judged by the edition its columns name',
  },
  { verifier: reactorVerifier, note: 'a Reactor state directory is no edition of the state spec' },
  { verifier: currentRunVerifier, edition: 'current', shapes: ['run', 'root'], note: 'a current-edition run' },
  {
    verifier: currentSqlRunVerifier,
    edition: 'current',
    shapes: ['sql-run'],
    note: 'a SQLite run of the current edition (state.db beside root.prose.md)',
  },
  { verifier: worldModelVerifier, edition: 'v0', note: 'a world-model and receipts in the v0 (hybrid) run layout' },
  {
    verifier: transcriptVerifier,
    editions: ['v0', 'current'],
    tell: transcriptEditionOf,
    note: 'an in-context transcript, judged by the edition its run lines or markers read as',
  },
];

export const VERIFIERS: readonly Verifier[] = CANDIDATES.map((c) => c.verifier);

export interface VerifyPathOptions extends VerifyOptions {
  /** Use this verifier instead of detecting one. */
  kind?: string;
  /** Judge the tree by this edition instead of the one its marker files name. */
  edition?: Edition;
  /** An earlier snapshot of the same current run or root: its append-only files must be prefixes of PATH's. */
  since?: string;
}

export interface VerifyResult {
  kind: string;
  findings: Finding[];
  edition: EditionVerdict;
}

/** The verifier `kind` names, or the one the tree's edition and shape (or its own detect) picks; undefined for none. */
export async function pickVerifier(path: string, kind?: string): Promise<Verifier | undefined> {
  const choice = await chooseVerifier(path, CANDIDATES, { kind });
  return choice && 'verifier' in choice ? choice.verifier : undefined;
}

/**
 * Verifies whatever `path` is. One call after a conformance case: `await verifyPath(dir, { homeDir })`.
 * Throws E_UNSUPPORTED (naming the known kinds) when no verifier recognises the path, or saying why the tree names
 * no one edition (then `edition` settles it).
 */
export async function verifyPath(path: string, opts: VerifyPathOptions = {}): Promise<VerifyResult> {
  const { kind, edition, since, ...rest } = opts;
  const choice = await chooseVerifier(path, CANDIDATES, { kind, edition });
  if (choice && 'refused' in choice)
    throw new ProseError('E_UNSUPPORTED', `cannot tell the edition of ${path}: ${choice.refused}`, {
      location: { file: path },
      hint: 'prose-state verify --edition v0|current PATH',
    });
  if (!choice) {
    throw new ProseError('E_UNSUPPORTED', `no verifier recognises ${path}`, {
      location: { file: path },
      hint: `known kinds: ${knownKinds()}; name one with --kind${edition ? ` (or another --edition than ${edition})` : ''}`,
    });
  }
  if (since !== undefined && choice.verdict.edition !== 'current')
    throw new ProseError(
      'E_USAGE',
      `--since compares current-edition snapshots; ${path} is judged ${choice.verdict.edition ?? 'no edition'}`,
      {
        hint: 'vm.log.md and receipts/*.jsonl are append-only in the current edition only',
      },
    );
  const judged = choice.verdict.edition === null ? {} : { edition: choice.verdict.edition };
  const findings = await choice.verifier.verify(path, { ...rest, ...judged });
  if (since !== undefined) findings.push(...checkAppendOnly(since, path, rest.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES));
  return { kind: choice.verifier.kind, findings, edition: choice.verdict };
}

export function knownKinds(): string {
  return VERIFIERS.map((v) => v.kind).join(', ');
}
