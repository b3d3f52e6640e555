import { listOwned } from '../kit/owned-files.ts';

/**
 * The regular files and directories in `dir` but dot-files, sorted; none when it cannot be listed (the caller
 * reports what is missing). Links, special files and names that are not UTF-8 are left out: the tree scan reports them.
 */
export function listNames(dir: string): string[] {
  try {
    return listOwned(dir).filter((n) => !n.startsWith('.'));
  } catch {
    return [];
  }
}
