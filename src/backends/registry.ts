import type { BackendFactory } from '../core/backend.ts';
import { resolve } from 'node:path';
import { ProseError } from '../core/errors.ts';

/** What parsing a backend string may need from the command's surroundings (never printed: it may hold secrets). */
export interface ResolveContext {
  env: Record<string, string | undefined>;
  cwd: string;
  /** The suite version an exec plugin is told in its handshake. */
  suiteVersion?: string;
  /** Sees an exec plugin's protocol lines as written (test --explain). */
  wire?: (direction: 'sent' | 'received', line: string) => void;
}

/**
 * The built-in backends, loaded lazily so a command pays only for the engines it uses (WASM SQLite, pg-mem).
 * `all` means every embedded backend: the ones that need nothing outside this process.
 */
const BUILT_IN: Record<string, () => Promise<BackendFactory>> = {
  filesystem: async () => (await import('./filesystem/index.ts')).filesystemFactory,
  sqlite: async () => (await import('./sqlite/index.ts')).sqliteFactory,
  postgres: async () => (await import('./postgres/index.ts')).postgresMemFactory,
  'in-context': async () => (await import('./in-context/index.ts')).inContextFactory,
};

/** Built in, but not part of `all`: the same backend in another dialect. */
const VARIANTS: Record<string, () => Promise<BackendFactory>> = {
  'in-context:compact': async () => (await import('./in-context/index.ts')).inContextCompactFactory,
};

export const EMBEDDED = Object.keys(BUILT_IN);

export function builtInNames(): string[] {
  return [...Object.keys(BUILT_IN), ...Object.keys(VARIANTS)];
}

/**
 * Parses a backend string: a built-in name, `all`, `postgres:URL` (or `postgres:env`, which takes the URL from
 * `.prose/.env`, then OPENPROSE_POSTGRES_URL, then DATABASE_URL), `module:PATH` or `exec:COMMAND`.
 * An unknown name is a usage error naming it (but never the rest of the string, which may be a secret).
 */
export async function resolveBackends(spec: string, ctx: ResolveContext = { env: {}, cwd: process.cwd() }): Promise<BackendFactory[]> {
  if (spec === 'all') return Promise.all(EMBEDDED.map(async (n) => ({ ...(await BUILT_IN[n]!()), spec: n })));
  const load = BUILT_IN[spec] ?? VARIANTS[spec];
  if (load) return [{ ...(await load()), spec }];
  return (await resolvePrefixed(spec, ctx)).map((f) => ({ ...f, spec }));
}

async function resolvePrefixed(spec: string, ctx: ResolveContext): Promise<BackendFactory[]> {
  const colon = spec.indexOf(':');
  const prefix = colon === -1 ? '' : spec.slice(0, colon);
  const rest = spec.slice(colon + 1);
  if (prefix === 'module') {
    const { moduleFactory } = await import('../plugin/index.ts');
    return [await moduleFactory(resolve(ctx.cwd, rest))];
  }
  if (prefix === 'exec') {
    const { execFactory } = await import('../plugin/index.ts');
    // The per-request timeout stays below the runner's step timeout, so a hung plugin is the plugin's error.
    const timeoutMs = ctx.env.PROSE_STATE_PLUGIN_TIMEOUT ? Number(ctx.env.PROSE_STATE_PLUGIN_TIMEOUT) : undefined;
    if (timeoutMs !== undefined && !(Number.isSafeInteger(timeoutMs) && timeoutMs > 0)) throw new ProseError('E_USAGE', 'PROSE_STATE_PLUGIN_TIMEOUT must be a positive number of milliseconds');
    return [await execFactory(rest, { suite: ctx.suiteVersion ?? 'unknown', cwd: ctx.cwd, ...(timeoutMs !== undefined ? { timeoutMs } : {}), ...(ctx.wire ? { wire: ctx.wire } : {}) })];
  }
  if (prefix === 'mutant') {
    // The selftest's deliberately broken backends, by name, so a worker process can open the same one.
    const { MUTANTS, CONTROL } = await import('../selftest/mutants/index.ts');
    const m = [CONTROL, ...MUTANTS].find((x) => x.name === rest);
    if (!m) throw new ProseError('E_USAGE', `unknown mutant "${rest}"`, { hint: 'prose-state selftest --list' });
    return [m.factory];
  }
  if (prefix === 'postgres') {
    const pg = await import('./postgres/index.ts');
    if (rest === 'env') {
      const found = pg.resolvePostgresUrl(ctx.cwd, ctx.env);
      if (!found) throw new ProseError('E_USAGE', 'postgres:env found no database URL', { hint: 'set OPENPROSE_POSTGRES_URL in .prose/.env or the shell, or DATABASE_URL' });
      return [pg.postgresUrlFactory(found.url, found.source)];
    }
    return [pg.postgresUrlFactory(rest)];
  }
  throw new ProseError('E_USAGE', `unknown backend "${prefix ? `${prefix}:…` : spec}"`, {
    hint: `known backends: ${[...builtInNames(), 'all', 'postgres:URL', 'postgres:env', 'module:PATH', 'exec:COMMAND'].join(', ')}`,
  });
}
