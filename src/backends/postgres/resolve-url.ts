import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProseError } from '../../core/errors.ts';

/** Where the URL came from, for messages; the URL itself is never printed. */
/** `{envFile} OPENPROSE_POSTGRES_URL`: the project's env file the URL was read from (`.prose/.env`, or `.env`). */
export type UrlSource = `${string} OPENPROSE_POSTGRES_URL` | 'shell OPENPROSE_POSTGRES_URL' | 'shell DATABASE_URL';

export interface ResolvedUrl {
  url: string;
  source: UrlSource;
}

/**
 * The connection URL by the spec's precedence: OPENPROSE_POSTGRES_URL in `{projectDir}/.prose/.env`, then
 * OPENPROSE_POSTGRES_URL in the shell, then DATABASE_URL in the shell (docs/decisions.md `pg-url-precedence`).
 * Empty values count as unset. Undefined when none is set.
 */
export function resolvePostgresUrl(
  projectDir: string,
  env: Record<string, string | undefined>,
): ResolvedUrl | undefined {
  const fromFile = urlInEnvFile(projectDir, '.prose/.env');
  return fromFile ?? urlInShell(env);
}

/** OPENPROSE_POSTGRES_URL of the project's env file `envFile` (relative, `/`-separated), when it is set there. */
export function urlInEnvFile(projectDir: string, envFile: string): ResolvedUrl | undefined {
  const url = readDotEnv(join(projectDir, ...envFile.split('/'))).OPENPROSE_POSTGRES_URL;
  return url ? { url, source: `${envFile} OPENPROSE_POSTGRES_URL` } : undefined;
}

/** The shell's OPENPROSE_POSTGRES_URL, then its DATABASE_URL (empty values count as unset). */
export function urlInShell(env: Record<string, string | undefined>): ResolvedUrl | undefined {
  if (env.OPENPROSE_POSTGRES_URL) return { url: env.OPENPROSE_POSTGRES_URL, source: 'shell OPENPROSE_POSTGRES_URL' };
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, source: 'shell DATABASE_URL' };
  return undefined;
}

/** Reads a dotenv file; a missing file is empty. Errors name the line, never the value. */
export function readDotEnv(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ProseError('E_IO', `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`, {
      location: { file: path },
    });
  }
  return parseDotEnv(text, path);
}

/** `KEY=value`, `export KEY=value`, optional single or double quotes, `#` comments and blank lines. */
export function parseDotEnv(text: string, file = '.env'): Record<string, string> {
  const out: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!m) {
      throw new ProseError('E_USAGE', 'a line of the .env file is not KEY=value', {
        location: { file, line: i + 1 },
        hint: 'write OPENPROSE_POSTGRES_URL=postgresql://... on its own line',
      });
    }
    let value = m[2]!;
    const q = value[0];
    if ((q === '"' || q === "'") && value.endsWith(q) && value.length >= 2) value = value.slice(1, -1);
    else value = value.replace(/\s+#.*$/, '');
    out[m[1]!] = value;
  });
  return out;
}
