import { readdirSync } from 'node:fs';

/** The names in `dir` but dot-files, sorted; none when it cannot be listed (the caller reports what is missing). */
export function listNames(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => !n.startsWith('.'))
      .sort();
  } catch {
    return [];
  }
}
