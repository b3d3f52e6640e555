import { lstatSync } from 'node:fs';
import { kindOfStats, readOwned, RefusedFile } from '../kit/owned-files.ts';

/**
 * A file's bytes, or why it cannot be read (missing, a directory, no permission), or `refused` for a link, special
 * file or one over `maxBytes` (the tree scan reports those, so callers stay silent): never throws.
 */
export function readBytes(
  path: string,
  maxBytes: number,
): { bytes: Uint8Array } | { error: string } | { refused: true } {
  try {
    return { bytes: readOwned(path, maxBytes) };
  } catch (err) {
    if (err instanceof RefusedFile) return { refused: true };
    const code = (err as NodeJS.ErrnoException).code;
    return { error: code === 'ENOENT' ? 'is missing' : `cannot be read (${code ?? (err as Error).message})` };
  }
}

/**
 * True when readBytes would refuse `path` (a link, special file, or a file over `maxBytes`): what depends on that
 * file stays silent too, so the entry is reported once, by the tree scan.
 */
export function isRefused(path: string, maxBytes: number): boolean {
  try {
    const s = lstatSync(path);
    const kind = kindOfStats(s);
    return kind === 'symlink' || kind === 'special' || (kind === 'file' && s.size > maxBytes);
  } catch {
    return false;
  }
}
