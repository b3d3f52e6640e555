import { ProseError } from '../core/errors.ts';
import { canonicalEntries, type ArtifactEntry } from './artifact-files.ts';
import { contentAddressOf, isContentAddress } from './content-address.ts';
import { serializeEntries } from './opwm1.ts';
import { parseArtifact } from './parse-artifact.ts';

/** The pointer file of a published node directory; no artifact may hold a file at that path (`wm-version-file`). */
export const VERSION_FILE = '.version';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The canonical entries of the files an operation was given, refused as E_INVALID_ARGUMENT (naming the file)
 * when a path cannot be stored in every backend: `..`, empty, NUL or control characters, two raw paths for one file, a file at `.version`,
 * or a file that is also the directory of another (`a` and `a/b`), which a directory layout cannot hold.
 */
export function artifactEntriesOf(files: Record<string, string>, field = 'files'): ArtifactEntry[] {
  let entries: ArtifactEntry[];
  try {
    entries = canonicalEntries(files);
  } catch (err) {
    const e = err as ProseError;
    throw new ProseError('E_INVALID_ARGUMENT', e.message, {
      location: { field: e.location?.field?.replace(/^files/, field) ?? field },
      hint: e.hint,
      cause: err,
    });
  }
  const paths = new Set(entries.map((e) => e.path));
  for (const e of entries) {
    // A directory layout cannot name a file with NUL or a control character, so no backend stores one.
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(e.path)) {
      throw new ProseError(
        'E_INVALID_ARGUMENT',
        `world-model file path ${JSON.stringify(e.path)} holds NUL or a control character`,
        {
          location: { field: `${field}[${JSON.stringify(e.path)}]` },
          hint: 'file names in a world-model must be storable as files',
        },
      );
    }
    if (e.path === VERSION_FILE) {
      throw new ProseError('E_INVALID_ARGUMENT', `a world-model file may not be named ${VERSION_FILE}`, {
        location: { field: `${field}[${JSON.stringify(e.path)}]` },
        hint: `${VERSION_FILE} is the published pointer of the node directory`,
      });
    }
    const segs = e.path.split('/');
    for (let i = 1; i < segs.length; i++) {
      const dir = segs.slice(0, i).join('/');
      if (paths.has(dir)) {
        throw new ProseError(
          'E_INVALID_ARGUMENT',
          `${JSON.stringify(dir)} is both a file and the directory of ${JSON.stringify(e.path)}`,
          {
            location: { field: `${field}[${JSON.stringify(dir)}]` },
            hint: 'a directory layout cannot hold a file and a directory of one name',
          },
        );
      }
    }
  }
  return entries;
}

/** OPWM1 bytes and address of checked entries. */
export function commitEntries(entries: readonly ArtifactEntry[]): { address: `sha256:${string}`; bytes: Uint8Array } {
  const bytes = serializeEntries(entries);
  return { address: contentAddressOf(bytes), bytes };
}

/**
 * Reads stored version bytes back as text files. The bytes must be canonical OPWM1 hashing to `address`
 * (when given) and every content must be UTF-8; anything else is E_CORRUPT naming the node and address.
 */
export function filesOfVersion(bytes: Uint8Array, where: string, address?: string): Record<string, string> {
  if (address !== undefined && contentAddressOf(bytes) !== address) {
    throw new ProseError('E_CORRUPT', `stored version ${where} does not hash to its address`, {
      location: { field: where },
    });
  }
  let entries: ArtifactEntry[];
  try {
    entries = parseArtifact(bytes);
  } catch (err) {
    throw new ProseError('E_CORRUPT', `stored version ${where} is not canonical OPWM1: ${(err as Error).message}`, {
      location: { field: where },
      cause: err,
    });
  }
  const out: Record<string, string> = {};
  for (const e of entries) {
    try {
      out[e.path] = UTF8.decode(e.content);
    } catch {
      throw new ProseError('E_CORRUPT', `file ${JSON.stringify(e.path)} of ${where} is not UTF-8 text`, {
        location: { field: where },
      });
    }
  }
  return out;
}

/** A version argument: `sha256:<64 lowercase hex>` or E_INVALID_ARGUMENT. */
export function checkAddressArg(value: unknown, field: string): `sha256:${string}` {
  if (!isContentAddress(value)) {
    throw new ProseError('E_INVALID_ARGUMENT', `${field} ${JSON.stringify(value)} is not a content address`, {
      location: { field },
      hint: 'a version is sha256: followed by 64 lowercase hex digits',
    });
  }
  return value;
}
