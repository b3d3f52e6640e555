import { ProseError } from '../core/errors.ts';
import { currentRunVerifier, yieldToCurrentRoot } from './current-run/index.ts';
import type { Finding, Verifier, VerifyOptions } from './finding.ts';
import { reactorVerifier } from './reactor/index.ts';
import { proseDirVerifier, runDirVerifier } from './run-dir/index.ts';
import { stateDbVerifier } from './state-db/index.ts';
import { transcriptVerifier } from './transcript/index.ts';
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

/**
 * Every verifier, in the order `detect` is tried: the most specific first (a run directory before a `.prose/`
 * directory that holds runs; a SQLite file before a text transcript).
 */
export const VERIFIERS: readonly Verifier[] = [
  runDirAndWorldModel,
  yieldToCurrentRoot(proseDirVerifier),
  stateDbVerifier,
  reactorVerifier,
  currentRunVerifier,
  worldModelVerifier,
  transcriptVerifier,
];

export interface VerifyPathOptions extends VerifyOptions {
  /** Use this verifier instead of detecting one. */
  kind?: string;
}

export interface VerifyResult {
  kind: string;
  findings: Finding[];
}

/** The verifier `kind` names, or the first whose detect accepts `path`; undefined when none does. */
export async function pickVerifier(path: string, kind?: string): Promise<Verifier | undefined> {
  if (kind !== undefined) {
    const v = VERIFIERS.find((x) => x.kind === kind);
    if (!v)
      throw new ProseError('E_USAGE', `unknown verifier kind ${JSON.stringify(kind)}`, {
        hint: `known kinds: ${knownKinds()}`,
      });
    return v;
  }
  for (const v of VERIFIERS) if (await v.detect(path)) return v;
  return undefined;
}

/**
 * Verifies whatever `path` is. One call after a conformance case: `await verifyPath(dir, { homeDir })`.
 * Throws E_UNSUPPORTED (naming the known kinds) when no verifier recognises the path.
 */
export async function verifyPath(path: string, opts: VerifyPathOptions = {}): Promise<VerifyResult> {
  const v = await pickVerifier(path, opts.kind);
  if (!v) {
    throw new ProseError('E_UNSUPPORTED', `no verifier recognises ${path}`, {
      location: { file: path },
      hint: `known kinds: ${knownKinds()}; name one with --kind`,
    });
  }
  const { kind: _kind, ...rest } = opts;
  return { kind: v.kind, findings: await v.verify(path, rest) };
}

export function knownKinds(): string {
  return VERIFIERS.map((v) => v.kind).join(', ');
}
