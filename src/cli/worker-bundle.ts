import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
    const outfile = join(dir, 'prose-state.cjs');
    await build({
      entryPoints: [join(src, 'cli', 'sea-entry.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      supported: { 'dynamic-import': false },
      // Packages that read import.meta.url get the bundle's own (the WASM loader is handed its bytes, as in the binary).
      define: { __PROSE_STATE_SUITE_KEY__: '""', 'import.meta.url': '__prose_import_meta_url' },
      banner: { js: 'var __prose_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
      external: ['pg-native', 'pg-cloudflare', 'esbuild'],
      logLevel: 'silent',
      // Each source file keeps its own import.meta.url, so paths relative to it (the suite, sqlite3.wasm) resolve
      // as they do from the checkout.
      plugins: [
        {
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
        },
      ],
    });
    return { command: [self[0]!, outfile], dispose };
  } catch {
    dispose();
    return none;
  }
}
