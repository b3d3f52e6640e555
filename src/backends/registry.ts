import type { BackendFactory } from '../core/backend.ts';
import { ProseError } from '../core/errors.ts';

/**
 * The built-in backends, loaded lazily so a command pays only for the engines it uses (WASM SQLite, pg-mem).
 * `all` means every embedded backend: the ones that need nothing outside this process.
 */
const BUILT_IN: Record<string, () => Promise<BackendFactory>> = {
  filesystem: async () => (await import('./filesystem/index.ts')).filesystemFactory,
};

export const EMBEDDED = Object.keys(BUILT_IN);

export function builtInNames(): string[] {
  return Object.keys(BUILT_IN);
}

/**
 * Parses a backend string: a built-in name, `all`, `postgres:URL`, `module:PATH` or `exec:COMMAND`.
 * An unknown name is a usage error naming it and the known ones.
 */
export async function resolveBackends(spec: string): Promise<BackendFactory[]> {
  if (spec === 'all') return Promise.all(EMBEDDED.map((n) => BUILT_IN[n]!()));
  const load = BUILT_IN[spec];
  if (load) return [await load()];
  const colon = spec.indexOf(':');
  const prefix = colon === -1 ? '' : spec.slice(0, colon);
  throw new ProseError('E_USAGE', `unknown backend "${prefix ? `${prefix}:…` : spec}"`, {
    hint: `known backends: ${[...Object.keys(BUILT_IN), 'all'].join(', ')}`,
  });
}
