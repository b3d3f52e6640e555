import { resolve } from 'node:path';
import type { BackendFactory } from '../core/backend.ts';
import { ProseError } from '../core/errors.ts';
import { postgresEnvUrl } from './postgres-env-url.ts';

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
 * One kind of backend string: an exact `name`, or a `prefix` (ending in `:`) whose rest the kind reads. The CLI is
 * the one layer that may know every kind (built-in backends, plugins, the selftest's mutants), so the table lives
 * here. Each kind loads lazily, so a command pays only for the engines it uses (WASM SQLite, pg-mem).
 */
type BackendKind =
  | { name: string; embedded: boolean; open: () => Promise<BackendFactory> }
  | { prefix: string; usage: readonly string[]; open: (rest: string, ctx: ResolveContext) => Promise<BackendFactory> };

const KINDS: readonly BackendKind[] = [
  // `embedded`: part of `all`, needing nothing outside this process.
  {
    name: 'filesystem',
    embedded: true,
    open: async () => (await import('../backends/filesystem/index.ts')).filesystemFactory,
  },
  { name: 'sqlite', embedded: true, open: async () => (await import('../backends/sqlite/index.ts')).sqliteFactory },
  // The same backend on one SQLite engine (src/sqlite/engine.ts); plain `sqlite` picks its default (decision sqlite-engine).
  { name: 'sqlite:native', embedded: false, open: () => sqliteOn('native') },
  { name: 'sqlite:posix', embedded: false, open: () => sqliteOn('posix') },
  { name: 'sqlite:wasm', embedded: false, open: () => sqliteOn('wasm') },
  {
    name: 'postgres',
    embedded: true,
    open: async () => (await import('../backends/postgres/index.ts')).postgresMemFactory,
  },
  {
    name: 'in-context',
    embedded: true,
    open: async () => (await import('../backends/in-context/index.ts')).inContextFactory,
  },
  // Built in, but not part of `all`: the same backend in another dialect.
  {
    name: 'in-context:compact',
    embedded: false,
    open: async () => (await import('../backends/in-context/index.ts')).inContextCompactFactory,
  },
  // `postgres:env` takes the URL from `.prose/.env`, then OPENPROSE_POSTGRES_URL, then DATABASE_URL.
  { prefix: 'postgres:', usage: ['postgres:URL', 'postgres:env'], open: openPostgres },
  {
    prefix: 'module:',
    usage: ['module:PATH'],
    open: async (rest, ctx) => {
      const timeoutMs = pluginTimeout(ctx);
      const { moduleFactory } = await import('../plugin/index.ts');
      return moduleFactory(resolve(ctx.cwd, rest), timeoutMs !== undefined ? { timeoutMs } : {});
    },
  },
  { prefix: 'exec:', usage: ['exec:COMMAND'], open: openExec },
  // The selftest's deliberately broken backends, by name, so a worker process can open the same one.
  { prefix: 'mutant:', usage: [], open: openMutant },
];

const NAMED = KINDS.flatMap((k) => ('name' in k ? [k] : []));
const PREFIXED = KINDS.flatMap((k) => ('prefix' in k ? [k] : []));

export function builtInNames(): string[] {
  return NAMED.map((k) => k.name);
}

/**
 * Parses a backend string: a built-in name, `all` (every embedded backend) or a prefixed kind.
 * An unknown name is a usage error naming it (but never the rest of the string, which may be a secret).
 */
export async function resolveBackends(
  spec: string,
  ctx: ResolveContext = { env: {}, cwd: process.cwd() },
): Promise<BackendFactory[]> {
  if (spec === 'all')
    return Promise.all(NAMED.filter((k) => k.embedded).map(async (k) => ({ ...(await k.open()), spec: k.name })));
  const named = NAMED.find((k) => k.name === spec);
  if (named) return [{ ...(await named.open()), spec }];
  const prefixed = PREFIXED.find((k) => spec.startsWith(k.prefix));
  if (prefixed) return [{ ...(await prefixed.open(spec.slice(prefixed.prefix.length), ctx)), spec }];
  const colon = spec.indexOf(':');
  throw new ProseError('E_USAGE', `unknown backend "${colon === -1 ? spec : `${spec.slice(0, colon)}:…`}"`, {
    hint: `known backends: ${[...builtInNames(), 'all', ...PREFIXED.flatMap((k) => k.usage)].join(', ')}`,
  });
}

/** The sqlite backend on `engine` (worker processes are handed the same backend string, so they use it too). */
async function sqliteOn(engine: 'native' | 'posix' | 'wasm'): Promise<BackendFactory> {
  const { checkEngine } = await import('../sqlite/index.ts');
  checkEngine(engine, `--backend sqlite:${engine}`); // native or posix on a Node without node:sqlite: E_UNSUPPORTED, before any case
  return (await import('../backends/sqlite/index.ts')).sqliteFactoryFor(engine);
}

async function openPostgres(rest: string, ctx: ResolveContext): Promise<BackendFactory> {
  const pg = await import('../backends/postgres/index.ts');
  // A URL that cannot be parsed is the user's mistake (E_USAGE, exit 2, its value never shown), found here before
  // any case rather than as one error per case; an unreachable server stays an infrastructure error at open.
  if (rest !== 'env') {
    pg.parseUrl(rest);
    return pg.postgresUrlFactory(rest);
  }
  // Both editions' env files (.prose/.env, and .env at the openprose root), as verify postgres:env reads them with
  // no --edition: one backend string serves every edition the run judges (decision verify-postgres-env).
  const found = postgresEnvUrl(pg, ctx.cwd, ctx.env);
  pg.parseUrl(found.url);
  return pg.postgresUrlFactory(found.url, found.source);
}

/**
 * A plugin's per-call timeout (exec requests and module calls alike), from PROSE_STATE_PLUGIN_TIMEOUT. It stays below
 * the runner's step timeout, so a hung plugin is the plugin's error.
 */
function pluginTimeout(ctx: ResolveContext): number | undefined {
  const timeoutMs = ctx.env.PROSE_STATE_PLUGIN_TIMEOUT ? Number(ctx.env.PROSE_STATE_PLUGIN_TIMEOUT) : undefined;
  if (timeoutMs !== undefined && !(Number.isSafeInteger(timeoutMs) && timeoutMs > 0))
    throw new ProseError('E_USAGE', 'PROSE_STATE_PLUGIN_TIMEOUT must be a positive number of milliseconds');
  return timeoutMs;
}

async function openExec(rest: string, ctx: ResolveContext): Promise<BackendFactory> {
  const { execFactory } = await import('../plugin/index.ts');
  const timeoutMs = pluginTimeout(ctx);
  return execFactory(rest, {
    suite: ctx.suiteVersion ?? 'unknown',
    cwd: ctx.cwd,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(ctx.wire ? { wire: ctx.wire } : {}),
  });
}

async function openMutant(rest: string): Promise<BackendFactory> {
  const { MUTANTS, CONTROLS } = await import('../selftest/mutants/index.ts');
  const m = [...new Set(Object.values(CONTROLS)), ...MUTANTS].find((x) => x.name === rest);
  if (!m) throw new ProseError('E_USAGE', `unknown mutant "${rest}"`, { hint: 'prose-state selftest --list' });
  return m.factory;
}
