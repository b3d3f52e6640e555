// esbuild step: the CLI as ONE CommonJS file, which is what a Node SEA main must be.
import { build } from 'esbuild';

/** The fingerprint engine's reader-thread program, a module of its own: started in the binary from its bundled text. */
const READER_WORKER = new URL('../../src/fingerprint/reader-worker.ts', import.meta.url);

/** The reader worker as one CommonJS script (what `new Worker(text, { eval: true })` runs), minified like the CLI. */
async function bundleReaderWorker() {
  const result = await build({
    entryPoints: [READER_WORKER.pathname],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

/**
 * - CJS, not ESM: ESM output breaks `pg`, and a SEA main cannot have top-level await.
 * - `import.meta.url` is defined to the binary's own file URL (the wasm loader and suite-dir use it).
 * - dynamic-import=false: `import()` becomes a lazy require, which also keeps V8's code cache usable.
 * - The reader threads' program is bundled first and defined as a string (`reader-threads.ts` runs it).
 */
export async function bundleCli({ entry, outfile, suiteKey, buildKey = '' }) {
  const readerWorker = await bundleReaderWorker();
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
      __PROSE_STATE_BUILD_KEY__: JSON.stringify(buildKey),
      __PROSE_STATE_READER_WORKER__: JSON.stringify(readerWorker),
    },
    banner: { js: 'var __prose_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
    // Optional native/ORM add-ons that pg and pg-mem load only on request; the binary never asks for them.
    external: ['pg-native', 'pg-cloudflare'],
    logLevel: 'warning',
    metafile: true,
  });
  return result;
}
