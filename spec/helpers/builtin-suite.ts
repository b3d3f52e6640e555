import { fileURLToPath } from 'node:url';
import { loadCliSuite } from '../../src/cli/suite-cache-for.ts';
import type { Suite } from '../../src/conformance/case-types.ts';

/** The checkout's conformance/ folder. */
export const BUILTIN_SUITE_DIR = fileURLToPath(new URL('../../conformance', import.meta.url));

/**
 * The built-in suite as the CLI reads it, through the checkout's parsed-suite cache: a spec that only uses the cases
 * reads a snapshot (~30 ms) instead of composing the YAML again (~0.4-1.3 s). spec/conformance/load-suite.spec.ts
 * parses it itself.
 */
export function builtinSuite(): Suite {
  return loadCliSuite(BUILTIN_SUITE_DIR, { env: {} });
}
