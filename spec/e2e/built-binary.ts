import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const BINARY = join(REPO, 'dist', 'prose-state');

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((m, e) => Math.max(m, newestMtime(join(path, e))), st.mtimeMs);
}

/**
 * The built binary, fresh: built now when it is missing or older than anything it is made of, so the e2e spec
 * never tests a stale binary and never skips (the build is offline, ~30 s).
 */
export function ensureBinary(): string {
  const inputs = ['src', 'conformance', 'scripts/build-binary.mjs', 'scripts/binary', 'package-lock.json']
    .map((p) => join(REPO, p))
    .filter(existsSync);
  if (existsSync(BINARY) && statSync(BINARY).mtimeMs >= Math.max(...inputs.map(newestMtime))) return BINARY;
  const r = spawnSync(process.execPath, [join(REPO, 'scripts', 'build-binary.mjs')], { cwd: REPO, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run build failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return BINARY;
}
