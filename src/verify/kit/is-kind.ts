import { statSync } from 'node:fs';

/** True when `p` is a file (or a directory): never throws, so a verifier can ask about paths that may not exist. */
export function isKind(p: string, kind: 'file' | 'dir'): boolean {
  try {
    const s = statSync(p);
    return kind === 'file' ? s.isFile() : s.isDirectory();
  } catch {
    return false;
  }
}
