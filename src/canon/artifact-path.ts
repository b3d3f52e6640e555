import { ProseError } from '../core/errors.ts';

/**
 * Normalizes an artifact path exactly as the reference `normalizeArtifactPath` does: `\` becomes `/`, empty and
 * `.` segments are dropped (so a leading `/` is silently stripped), `..` is refused, and a path that normalizes
 * to nothing is refused. No Unicode or case normalization: bytes are the identity.
 * One rule of ours on top: lone UTF-16 surrogates are refused, because UTF-8 cannot hold them and the reference
 * would silently turn two different names into the same U+FFFD bytes (decision `canon-lone-surrogates`).
 */
export function normalizeArtifactPath(raw: string, field = 'path'): string {
  if (typeof raw !== 'string' || raw.length === 0) {
    throw new ProseError('E_FORMAT', 'an artifact path must be a non-empty string', { location: { field } });
  }
  if (!raw.isWellFormed()) {
    throw new ProseError('E_FORMAT', `artifact path ${JSON.stringify(raw)} holds a lone UTF-16 surrogate`, {
      location: { field },
      hint: 'paths are UTF-8; a lone surrogate has no UTF-8 form',
    });
  }
  const segments: string[] = [];
  for (const segment of raw.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      throw new ProseError('E_FORMAT', `artifact path ${JSON.stringify(raw)} escapes the root with ".."`, {
        location: { field },
        hint: 'artifact paths are relative and may not contain ".." segments',
      });
    }
    segments.push(segment);
  }
  if (segments.length === 0) {
    throw new ProseError('E_FORMAT', `artifact path ${JSON.stringify(raw)} normalizes to nothing`, {
      location: { field },
    });
  }
  return segments.join('/');
}
