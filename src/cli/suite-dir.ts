import { fileURLToPath } from 'node:url';

/**
 * Where the built-in conformance suite lives. From a checkout it is `conformance/` beside `src/`; the single
 * binary sets PROSE_STATE_SUITE_DIR to the copy it unpacks from its assets.
 */
export function defaultSuiteDir(env: Record<string, string | undefined>): string {
  return env.PROSE_STATE_SUITE_DIR ?? fileURLToPath(new URL('../../conformance', import.meta.url));
}
