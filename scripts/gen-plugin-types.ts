// Writes types/ (the package's public declarations: package.json "types" and "exports") from src/core/plugin-api.ts
// with tsc, so the plugin API is the same vocabulary the toolkit runs on. `--check` builds into a temporary
// directory and fails when the committed types/ differs; then it type-checks the TypeScript module plugin in
// conformance/plugins/typed-module/ against them with a consumer's settings (importing 'prose-state' by name).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const build = (outDir: string) =>
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.types.json'), '--outDir', outDir], {
    cwd: root,
    stdio: 'inherit',
  });
const tree = (dir: string): Record<string, string> => {
  try {
    return Object.fromEntries(
      readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .sort()
        .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
    );
  } catch {
    return {};
  }
};

const target = join(root, 'types');
if (process.argv.includes('--check')) {
  const tmp = mkdtempSync(join(tmpdir(), 'prose-types-'));
  try {
    build(tmp);
    const fresh = tree(tmp);
    const committed = tree(target);
    const stale = [...new Set([...Object.keys(fresh), ...Object.keys(committed)])].filter(
      (f) => fresh[f] !== committed[f],
    );
    if (stale.length) {
      console.error(`types/ is stale (${stale.join(', ')}): run \`node --import tsx scripts/gen-plugin-types.ts\``);
      process.exit(1);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  execFileSync(process.execPath, [tsc, '-p', join(root, 'conformance', 'plugins', 'typed-module', 'tsconfig.json')], {
    cwd: root,
    stdio: 'inherit',
  });
  console.log('plugin types: types/ is up to date and conformance/plugins/typed-module type-checks against it');
} else {
  rmSync(target, { recursive: true, force: true });
  build(target);
  console.log(`wrote ${target}`);
}
