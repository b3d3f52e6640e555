import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';

/**
 * The command a run's worker processes start (crash, concurrency, mixed writers, subagent steps). From a checkout
 * `self` is node running bin/prose-state.js through tsx, and tsx's transforms were the largest share of a worker's
 * start-up (a CPU profile of a sqlite crash worker: 187 ms in tsx and ~90 ms of garbage collection of ~650 ms),
 * paid once per kill. So the CLI is bundled once per run into one plain JS file (as the single binary bundles it)
 * and workers run that. Where that cannot be done (esbuild is a dev dependency; the single binary has no tsx to
 * avoid) the workers run `self` as before. `dispose` removes the bundle.
 */
export async function workerCommandFor(
  self: readonly string[] | undefined,
): Promise<{ command: readonly string[] | undefined; dispose(): void }> {
  const none = { command: self, dispose: () => undefined };
  if (!self || self.length !== 2 || !self[1]!.endsWith(join('bin', 'prose-state.js'))) return none;
  const src = fileURLToPath(new URL('..', import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), 'prose-state-worker-'));
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  try {
    // A name the single binary's bundler does not follow: it has no esbuild, and never gets here.
    const esbuildName = 'esbuild';
    const { build } = (await import(esbuildName)) as typeof import('esbuild');
    const outfile = join(dir, 'cli.cjs');
    await build({
      entryPoints: [join(src, 'cli', 'sea-entry.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      supported: { 'dynamic-import': false },
      // Packages that read import.meta.url get the bundle's own (the WASM loader is handed its bytes, as in the binary).
      define: {
        __PROSE_STATE_SUITE_KEY__: '""',
        __PROSE_STATE_BUILD_KEY__: '""',
        'import.meta.url': '__prose_import_meta_url',
      },
      banner: { js: 'var __prose_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
      external: ['pg-native', 'pg-cloudflare', 'esbuild'],
      logLevel: 'silent',
      plugins: [packagesFromCheckout(src), ownImportMetaUrl()],
    });
    // V8's compile cache for the bundle, in the bundle's directory: a worker then loads the compiled code (the
    // functions it ran up to its ready, flushed there by the first worker) instead of compiling the bundle again.
    const entry = join(dir, 'prose-state.cjs');
    writeFileSync(
      entry,
      'require("node:module").enableCompileCache?.(require("node:path").join(__dirname, "compile-cache"));\nrequire("./cli.cjs");\n',
    );
    return { command: [self[0]!, entry], dispose };
  } catch {
    dispose();
    return none;
  }
}

/**
 * The packages stay in the checkout's node_modules, required by absolute path when a worker first needs one: a
 * worker compiles the whole bundle at start-up, and pg-mem, pgsql-ast-parser, yaml, ajv and their dependencies were
 * 2.2 of its 3.7 MB, which a crash or concurrency worker never runs. A sqlite crash case of 100 kills took 15% less
 * CPU and wall time so (34.7 -> 29.5 s CPU, 19.1 -> 16.3 s). ESM-only packages (WASM SQLite) stay in the bundle, so
 * a Node without require(esm) still loads it.
 */
function packagesFromCheckout(src: string): Plugin {
  return {
    name: 'packages-from-checkout',
    setup(b) {
      const fromCheckout = createRequire(join(src, 'cli', 'worker-bundle.ts'));
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:')) return undefined;
        let path: string;
        try {
          path = fromCheckout.resolve(args.path);
        } catch {
          return undefined; // optional peers (pg-native): esbuild's external list
        }
        return isAbsolute(path) && !path.endsWith('.mjs') ? { path, external: true } : undefined;
      });
    },
  };
}

/**
 * Each source file keeps its own import.meta.url, so paths relative to it (the suite, sqlite3.wasm) resolve as they
 * do from the checkout.
 */
function ownImportMetaUrl(): Plugin {
  return {
    name: 'own-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        const { readFile } = await import('node:fs/promises');
        const text = await readFile(args.path, 'utf8');
        return {
          contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
          loader: 'ts',
          resolveDir: dirname(args.path),
        };
      });
    },
  };
}
