// esbuild step: the CLI as ONE CommonJS file, which is what a Node SEA main must be.
import { build } from 'esbuild';

/**
 * - CJS, not ESM: ESM output breaks `pg`, and a SEA main cannot have top-level await.
 * - `import.meta.url` is defined to the binary's own file URL (the wasm loader and suite-dir use it).
 * - dynamic-import=false: `import()` becomes a lazy require, which also keeps V8's code cache usable.
 */
export async function bundleCli({ entry, outfile, suiteKey }) {
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: true,
    legalComments: 'none',
    supported: { 'dynamic-import': false },
    define: {
      'import.meta.url': '__prose_import_meta_url',
      __PROSE_STATE_SUITE_KEY__: JSON.stringify(suiteKey),
    },
    banner: { js: 'var __prose_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
    // Optional native/ORM add-ons that pg and pg-mem load only on request; the binary never asks for them.
    external: ['pg-native', 'pg-cloudflare'],
    logLevel: 'warning',
    metafile: true,
  });
  return result;
}
