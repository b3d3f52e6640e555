import { readFileSync } from 'node:fs';

/** A file's bytes, or why it cannot be read (missing, a directory, no permission): never throws. */
export function readBytes(path: string): { bytes: Uint8Array } | { error: string } {
  try {
    return { bytes: readFileSync(path) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { error: code === 'ENOENT' ? 'is missing' : `cannot be read (${code ?? (err as Error).message})` };
  }
}
