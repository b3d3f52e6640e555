import type { Edition } from '../../core/editions.ts';
import { checkPgSchema } from '../../verify/postgres/check-pg-schema.ts';
import type { VerifyResult } from '../../verify/registry.ts';
import { postgresEnvUrl } from '../postgres-env-url.ts';

/** `postgres:URL`, `postgres:env`, or a bare postgres:// or postgresql:// URL (never taken for a path, never printed). */
export const POSTGRES_TARGET = /^postgres(?:ql)?:/;

/**
 * `verify postgres:URL` and `verify postgres:env` (the URL in the edition's env file, postgres-env-url.ts): schema
 * openprose read inside a READ ONLY transaction that is rolled back. The URL is a secret: it is never printed, and
 * every error from the server goes through redact (src/backends/postgres/redact.ts).
 */
export async function verifyPostgres(
  target: string,
  ctx: { cwd: string; env: Record<string, string | undefined> },
  edition?: Edition,
): Promise<VerifyResult> {
  const pg = await import('../../backends/postgres/index.ts');
  const url = targetUrl(pg, target, ctx, edition);
  const reader = await pg.openReadOnlyReader(url);
  try {
    // postgres:env found its URL in the project: offloaded versions are read from that tree (none for a bare URL).
    const root = target === 'postgres:env' ? ctx.cwd : undefined;
    const { findings, edition: verdict } = await checkPgSchema(reader, edition, { root });
    return { kind: 'postgres', findings, edition: verdict };
  } finally {
    await reader.close();
  }
}

/** The database URL a postgres target names (checked, never printed); postgres:env finds it as the backend does. */
export function targetUrl(
  pg: typeof import('../../backends/postgres/index.ts'),
  target: string,
  ctx: { cwd: string; env: Record<string, string | undefined> },
  edition?: Edition,
): string {
  const bare = /^postgres(?:ql)?:\/\//.test(target);
  const rest = bare ? target : target.slice('postgres:'.length);
  let url = rest;
  if (rest === 'env') url = postgresEnvUrl(pg, ctx.cwd, ctx.env, edition).url;
  pg.parseUrl(url);
  return url;
}

/** How a postgres target is shown: never the URL. */
export function shownTarget(target: string): string {
  return target === 'postgres:env' ? target : 'postgres:(URL not shown)';
}
