import { ProseError } from '../core/errors.ts';
import { normalizeArtifactPath } from './artifact-path.ts';

/** Artifact files by raw path. A string content is its UTF-8 bytes, as written (no EOL or Unicode normalization). */
export type ArtifactInput = Readonly<Record<string, Uint8Array | string>> | ReadonlyMap<string, Uint8Array | string>;

/** One file of a canonical artifact: normalized path, its UTF-8 bytes, the content bytes. */
export interface ArtifactEntry {
  path: string;
  pathBytes: Uint8Array;
  content: Uint8Array;
}

const UTF8 = new TextEncoder();

/**
 * Normalizes every path, refuses two raw paths that normalize to the same one (as the reference does), and
 * returns the files in canonical order: ascending UTF-8 path bytes.
 */
export function canonicalEntries(files: ArtifactInput): ArtifactEntry[] {
  const pairs = files instanceof Map ? [...files.entries()] : Object.entries(files);
  const byPath = new Map<string, ArtifactEntry>();
  for (const [raw, content] of pairs) {
    const field = `files[${JSON.stringify(raw)}]`;
    const path = normalizeArtifactPath(raw, field);
    if (byPath.has(path)) {
      throw new ProseError('E_FORMAT', `two artifact paths normalize to ${JSON.stringify(path)}`, {
        location: { field },
        hint: 'paths differing only in "\\", "/", "." or empty segments name the same file',
      });
    }
    let bytes: Uint8Array;
    if (typeof content === 'string') bytes = UTF8.encode(content);
    else if (content instanceof Uint8Array) bytes = content;
    else
      throw new ProseError('E_FORMAT', `content of ${JSON.stringify(raw)} must be bytes or a string`, {
        location: { field },
      });
    byPath.set(path, { path, pathBytes: UTF8.encode(path), content: bytes });
  }
  return [...byPath.values()].sort((a, b) => Buffer.compare(a.pathBytes, b.pathBytes));
}
