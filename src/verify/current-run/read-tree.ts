import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { decodeName, kindOf, readOwned, RefusedFile } from '../kit/owned-files.ts';

export type Tree = { files: Map<string, Uint8Array> } | { error: string } | { refused: true };

/**
 * Every regular file under `dir` by its `/`-separated relative path, for hashing as OPWM1 (which holds files only).
 * A link, FIFO or device, a name that is not UTF-8 or a file over `maxBytes` makes the whole tree `refused`: it is
 * not hashed, and the tree scan has reported the entry. An unreadable entry is an error naming it: never a throw.
 * `keep` leaves out paths (the top-level `.version`).
 */
export function readTree(dir: string, maxBytes: number, keep: (rel: string) => boolean = () => true): Tree {
  const files = new Map<string, Uint8Array>();
  try {
    return walk(dir, '', { files, keep, maxBytes }) ? { files } : { refused: true };
  } catch (err) {
    if (err instanceof RefusedFile) return { refused: true };
    return { error: `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
}

interface Walk {
  files: Map<string, Uint8Array>;
  keep: (rel: string) => boolean;
  maxBytes: number;
}

/**
 * False when an entry is refused. The listing is readdir's own (listOwned would drop what must refuse the tree), but
 * nothing is followed: a directory is entered only when lstat says so, and files are opened by readOwned.
 */
function walk(abs: string, rel: string, w: Walk): boolean {
  if (kindOf(abs) !== 'dir') return false;
  for (const entry of readdirSync(abs, { withFileTypes: true, encoding: 'buffer' }) as Dirent<Buffer>[]) {
    const name = decodeName(entry.name);
    if (name === undefined) return false;
    const path = rel ? `${rel}/${name}` : name;
    if (!w.keep(path)) continue;
    const full = join(abs, name);
    if (entry.isDirectory()) {
      if (!walk(full, path, w)) return false;
    } else if (entry.isFile()) w.files.set(path, readOwned(full, w.maxBytes));
    else return false;
  }
  return true;
}
