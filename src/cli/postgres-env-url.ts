import { EDITION_NAMES, editionLayout, type Edition } from '../core/editions.ts';
import { ProseError } from '../core/errors.ts';
import type { ResolvedUrl } from '../backends/postgres/index.ts';

type Pg = typeof import('../backends/postgres/index.ts');

/**
 * The URL `verify postgres:env` reads: OPENPROSE_POSTGRES_URL in the edition's env file (v0 `.prose/.env`, current
 * `<openprose-root>/.env`: editionLayout's envFile), then the shell's OPENPROSE_POSTGRES_URL and DATABASE_URL. With
 * no `--edition` both editions' files are looked at; two that name different URLs are refused, since which database
 * is meant is then a guess. The URL is never put in a message.
 */
export function postgresEnvUrl(
  pg: Pg,
  cwd: string,
  env: Record<string, string | undefined>,
  edition?: Edition,
): ResolvedUrl {
  const files = edition ? [editionLayout(edition).envFile] : EDITION_NAMES.map((e) => editionLayout(e).envFile);
  const found = files.flatMap((f) => pg.urlInEnvFile(cwd, f) ?? []);
  if (found.length > 1 && found.some((r) => r.url !== found[0]!.url))
    throw new ProseError(
      'E_USAGE',
      `postgres:env: ${files.join(' and ')} set different OPENPROSE_POSTGRES_URL values`,
      {
        location: { file: files[0]! },
        hint: `name the edition whose file counts with --edition (${EDITION_NAMES.map((e) => `${e}: ${editionLayout(e).envFile}`).join(', ')})`,
      },
    );
  const url = found[0] ?? pg.urlInShell(env);
  if (url) return url;
  const where = edition ? `${files[0]} (the ${edition} edition's place)` : files.join(' and ');
  throw new ProseError('E_USAGE', `postgres:env found no database URL: looked at ${where}, then the shell`, {
    location: { file: files[0]! },
    hint: `set OPENPROSE_POSTGRES_URL in ${where}, or OPENPROSE_POSTGRES_URL or DATABASE_URL in the shell`,
  });
}
