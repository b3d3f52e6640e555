import { readdirSync, readFileSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

export type Tree = { files: Map<string, Uint8Array> } | { error: string };

/**
 * Every regular file under `dir` by its `/`-separated relative path, for hashing as OPWM1 (which holds files only).
 * A link, FIFO or device, a name that is not UTF-8, or an unreadable entry is an error naming it: never a throw.
 * `keep` leaves out paths (the top-level `.version`).
 */
export function readTree(dir: string, keep: (rel: string) => boolean = () => true): Tree {
  const files = new Map<string, Uint8Array>();
  try {
    const error = walk(dir, '', files, keep);
    return error === undefined ? { files } : { error };
  } catch (err) {
    return { error: `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
}

function walk(
  abs: string,
  rel: string,
  files: Map<string, Uint8Array>,
  keep: (rel: string) => boolean,
): string | undefined {
  for (const entry of readdirSync(abs, { withFileTypes: true, encoding: 'buffer' }) as Dirent<Buffer>[]) {
    let name: string;
    try {
      name = UTF8.decode(entry.name);
    } catch {
      return `${rel || '.'} holds a name that is not UTF-8`;
    }
    const path = rel ? `${rel}/${name}` : name;
    if (!keep(path)) continue;
    const full = join(abs, name);
    if (entry.isDirectory()) {
      const error = walk(full, path, files, keep);
      if (error !== undefined) return error;
    } else if (entry.isFile()) files.set(path, readFileSync(full));
    else return `${path} is not a regular file or directory (a link, FIFO or device)`;
  }
  return undefined;
}
