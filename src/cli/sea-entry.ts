// The single binary's entry (bundled by scripts/build-binary.mjs): hands the embedded assets to the library,
// routes a `sqlite3` link to that subcommand, then runs the same `main` as bin/prose-state.js.
import { main } from './main.ts';
import type { SuiteCache } from '../conformance/suite-cache.ts';
import type { SuiteBundle } from './sea/embedded-suite.ts';
import { SEA_ASSET, inSea, seaAssetBytes, seaAssetText } from './sea/sea-assets.ts';
import { sqlite3Route } from './sqlite3-route.ts';

/** Set by the build (esbuild `define`): the hash naming this binary's suite. */
declare const __PROSE_STATE_SUITE_KEY__: string;
/** Set by the build: the hash of everything the binary is made of (scripts/binary/inputs-hash.mjs), its code too. */
declare const __PROSE_STATE_BUILD_KEY__: string;
const NO_COMMAND = new Set(['--version', '-v', 'version', 'help', '--help', '-h']);

for (const s of [process.stdout, process.stderr]) {
  s.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    else throw e;
  });
}

async function run(): Promise<number> {
  const argv = sqlite3Route(process.argv0, process.argv.slice(2)) ?? process.argv.slice(2);
  const first = argv[0] ?? 'help';
  let suiteCache: SuiteCache | false = false;
  // Where no command runs, neither the 880 KB of WASM is copied nor its loader evaluated: `--version` stays near
  // `node -e 0` (issue 8). The imports are lazy for the same reason.
  if (inSea() && !NO_COMMAND.has(first)) {
    const { provideWasmBinary } = await import('../sqlite/wasm.ts');
    provideWasmBinary(seaAssetBytes(SEA_ASSET.sqliteWasm)!);
    if (first !== 'sqlite3') {
      const { embeddedSuiteCache, suiteCacheDir, unpackSuite } = await import('./sea/embedded-suite.ts');
      const ours = suiteCacheDir(__PROSE_STATE_SUITE_KEY__, process.env);
      if (!process.env.PROSE_STATE_SUITE_DIR)
        process.env.PROSE_STATE_SUITE_DIR = unpackSuite(
          __PROSE_STATE_SUITE_KEY__,
          () => JSON.parse(seaAssetText(SEA_ASSET.suite)!) as SuiteBundle,
          process.env,
        );
      // Its parse is kept beside it (a worker of this binary is given the folder its parent unpacked); a suite
      // folder given from outside is parsed every time.
      if (process.env.PROSE_STATE_SUITE_DIR === ours) suiteCache = embeddedSuiteCache(ours, __PROSE_STATE_BUILD_KEY__);
    }
  }
  // Worker processes (crash and concurrency areas) are this same binary, or node running this bundle; under an
  // emulator the kernel does not apply to the children (qemu-user without binfmt_misc), the command says how.
  const self = selfCommand(process.env) ?? (inSea() ? [process.execPath] : [process.execPath, process.argv[1]!]);
  return main(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    stdin: readStdin,
    self,
    suiteCache,
  });
}

/**
 * PROSE_STATE_SELF_COMMAND: a JSON array of strings that starts this binary again, e.g.
 * ["/usr/bin/qemu-aarch64-static", "-L", "/usr/aarch64-linux-gnu", "/opt/prose-state"] (docs/binary.md).
 */
function selfCommand(env: NodeJS.ProcessEnv): string[] | undefined {
  const raw = env.PROSE_STATE_SELF_COMMAND;
  if (!raw) return undefined;
  let argv: unknown;
  try {
    argv = JSON.parse(raw);
  } catch {
    argv = undefined;
  }
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === 'string'))
    throw new Error('PROSE_STATE_SELF_COMMAND must be a JSON array of strings (the argv that starts this binary)');
  return argv;
}

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
      .on('error', reject);
  });
}

run().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`prose-state: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 3;
  },
);
