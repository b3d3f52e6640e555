import { ProseError } from '../core/errors.ts';
import type { ArtifactEntry } from './artifact-files.ts';
import { contentAddressOf } from './content-address.ts';
import { serializeEntries } from './opwm1.ts';

/** A facet is one path segment under `published/`, and `@` names are the canonicalizer's own (`@atomic`). */
const FACET = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/**
 * The facet tokens of a faceted node (fs "Faceted layout — one subtree per facet"; decision facet-token-bytes):
 * for each declared facet, the content address of the OPWM1 artifact of the files under `published/<facet>/`, their
 * paths taken relative to that directory (an empty facet is the empty artifact). Files at the node root are shared
 * and move only `@atomic`; a file under `published/` outside every declared facet is refused.
 */
export function facetTokens(entries: readonly ArtifactEntry[], facets: readonly string[]): Record<string, string> {
  const seen = new Set<string>();
  for (const [i, f] of facets.entries()) {
    const field = `facets[${i}]`;
    if (typeof f !== 'string' || !FACET.test(f) || f === '..' || f === '.')
      throw new ProseError('E_INVALID_ARGUMENT', `facet ${JSON.stringify(f)} is not a directory name`, {
        location: { field },
        hint: 'a facet is the name of its #### heading: letters, digits, _ . - (not starting with . or @)',
      });
    if (seen.has(f))
      throw new ProseError('E_INVALID_ARGUMENT', `facet ${f} is declared twice`, { location: { field } });
    seen.add(f);
  }
  const byFacet = new Map<string, ArtifactEntry[]>([...seen].map((f) => [f, []]));
  for (const e of entries) {
    if (!e.path.startsWith('published/')) continue;
    const [facet, ...rest] = e.path.slice('published/'.length).split('/');
    const list = rest.length > 0 ? byFacet.get(facet!) : undefined;
    if (!list)
      throw new ProseError('E_INVALID_ARGUMENT', `${e.path} is under published/ but in no declared facet`, {
        location: { field: `files[${JSON.stringify(e.path)}]` },
        hint: 'published/<facet>/ holds the subtree of a declared facet; shared files go at the node root',
      });
    const path = rest.join('/');
    list.push({ path, pathBytes: Buffer.from(path, 'utf8'), content: e.content });
  }
  return Object.fromEntries([...byFacet].map(([f, list]) => [f, contentAddressOf(serializeEntries(list))]));
}
