import type { Edition } from '../../core/editions.ts';
import { ProseError } from '../../core/errors.ts';
import type { Verifier } from '../finding.ts';
import type { EditionVerdict } from './edition-verdict.ts';
import { treeEdition, type TreeShape } from './tree-edition.ts';

/** A verifier and what it judges: an edition and the tree shapes it reads, or why it judges no edition. */
export interface Candidate {
  verifier: Verifier;
  edition?: Edition;
  /** The shapes an edition's tree is routed to this verifier by (run-dir: a v0 run; prose-dir: a v0 root). */
  shapes?: readonly TreeShape[];
  /** For the report: what the verifier reads when the tree names no edition. */
  note: string;
  /** A verifier that judges each of these editions (a transcript): `tell` reads which one the state is. */
  editions?: readonly Edition[];
  tell?: (path: string) => Promise<{ edition: Edition; evidence: string }>;
}

/** Whether the candidate judges `edition`: its one edition, or one of those it tells apart. */
const judges = (c: Candidate, edition: Edition) => c.edition === edition || (c.editions?.includes(edition) ?? false);

export type Choice = { verifier: Verifier; verdict: EditionVerdict } | { refused: string } | undefined;

export interface ChooseOptions {
  kind?: string;
  edition?: Edition;
}

/**
 * The verifier for `path` and the edition it judges: `--kind` names the verifier; otherwise the tree's markers (or
 * `--edition`) name the edition and the tree's shape the verifier; state of no edition falls back to each verifier's
 * own detection, in order. A tree whose markers contradict each other is refused unless `--edition` is given.
 */
export async function chooseVerifier(
  path: string,
  candidates: readonly Candidate[],
  opts: ChooseOptions,
): Promise<Choice> {
  if (opts.kind !== undefined) return byKind(candidates, path, opts.kind, opts.edition);
  const tree = treeEdition(path);
  if (opts.edition !== undefined) {
    const e = opts.edition;
    const c =
      'none' in tree
        ? await firstDetecting(
            candidates.filter((x) => judges(x, e)),
            path,
          )
        : byShape(candidates, e, tree.shape);
    const said = 'edition' in tree ? `; the tree reads as ${tree.edition} (${tree.evidence})` : '';
    return c && { verifier: c.verifier, verdict: { edition: e, source: 'given', evidence: `--edition ${e}${said}` } };
  }
  if ('refused' in tree) return { refused: tree.refused };
  if ('edition' in tree) {
    const c = byShape(candidates, tree.edition, tree.shape);
    return (
      c && { verifier: c.verifier, verdict: { edition: tree.edition, source: 'detected', evidence: tree.evidence } }
    );
  }
  const c = await firstDetecting(candidates, path);
  return c && { verifier: c.verifier, verdict: await detected(c, path) };
}

/** The verdict of a verifier picked by its own detection: the edition it tells from the state, or its one edition. */
async function detected(c: Candidate, path: string): Promise<EditionVerdict> {
  if (!c.tell) return { edition: c.edition ?? null, source: 'detected', evidence: c.note };
  const told = await c.tell(path);
  return { edition: told.edition, source: 'detected', evidence: told.evidence };
}

async function byKind(
  candidates: readonly Candidate[],
  path: string,
  kind: string,
  edition: Edition | undefined,
): Promise<Choice> {
  const c = candidates.find((x) => x.verifier.kind === kind);
  if (!c)
    throw new ProseError('E_USAGE', `unknown verifier kind ${JSON.stringify(kind)}`, {
      hint: `known kinds: ${candidates.map((x) => x.verifier.kind).join(', ')}`,
    });
  if (edition !== undefined && !judges(c, edition))
    throw new ProseError('E_USAGE', `--kind ${kind} judges ${c.edition ?? 'no edition'}, not --edition ${edition}`, {
      hint: `kinds of the ${edition} edition: ${kindsOf(candidates, edition)}`,
    });
  if (edition === undefined && c.tell) return { verifier: c.verifier, verdict: await detected(c, path) };
  const verdict: EditionVerdict =
    edition !== undefined
      ? { edition, source: 'given', evidence: `--edition ${edition}` }
      : {
          edition: c.edition ?? null,
          source: 'kind',
          evidence: c.edition ? `--kind ${kind}` : `--kind ${kind}: ${c.note}`,
        };
  return { verifier: c.verifier, verdict };
}

function byShape(candidates: readonly Candidate[], edition: Edition, shape: TreeShape): Candidate | undefined {
  return candidates.find((x) => x.edition === edition && x.shapes?.includes(shape));
}

async function firstDetecting(candidates: readonly Candidate[], path: string): Promise<Candidate | undefined> {
  for (const c of candidates) if (await c.verifier.detect(path)) return c;
  return undefined;
}

function kindsOf(candidates: readonly Candidate[], edition: Edition): string {
  return candidates
    .filter((x) => judges(x, edition))
    .map((x) => x.verifier.kind)
    .join(', ');
}
