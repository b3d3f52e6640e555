import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { withFileLock } from '../../src/io/file-lock.ts';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const BINARY = join(REPO, 'dist', 'prose-state');

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((m, e) => Math.max(m, newestMtime(join(path, e))), st.mtimeMs);
}

/** Where `npm run build -- --target T` writes T's binary (linux-x64 is also dist/prose-state). */
export function binaryPath(target: string): string {
  return target === 'linux-x64'
    ? BINARY
    : join(REPO, 'dist', `prose-state-${target}${target.startsWith('win-') ? '.exe' : ''}`);
}

/**
 * The built binary of `target`, fresh: built now when it is missing or older than anything it is made of, so the
 * e2e specs never test a stale binary and never skip (the build is offline, ~30 s; win-x64 ~1 min more). Builds
 * share dist/.build/, so they take the project's cross-process lock (src/io/file-lock.ts): two spec workers building
 * at once broke one of them (postject: "Can't read and write to target executable"); the second now waits for the
 * first's build and then finds its binary fresh.
 */
export async function ensureBinary(target = 'linux-x64'): Promise<string> {
  const out = binaryPath(target);
  const inputs = ['src', 'conformance', 'scripts/build-binary.mjs', 'scripts/binary', 'package-lock.json']
    .map((p) => join(REPO, p))
    .filter(existsSync);
  const fresh = () => existsSync(out) && statSync(out).mtimeMs >= Math.max(...inputs.map(newestMtime));
  if (fresh()) return out;
  mkdirSync(join(REPO, 'dist'), { recursive: true });
  return withFileLock(
    join(REPO, 'dist', '.build-lock'),
    () => {
      if (fresh()) return out;
      const r = spawnSync(process.execPath, [join(REPO, 'scripts', 'build-binary.mjs'), '--target', target], {
        cwd: REPO,
        encoding: 'utf8',
      });
      if (r.status !== 0)
        throw new Error(`npm run build -- --target ${target} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
      return out;
    },
    { timeoutMs: 15 * 60_000 },
  );
}

/** The footers of a `test --reporter json` run, counts only: a footer's measured extras vary from run to run. */
export const footers = (jsonl: string) =>
  jsonl
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((m) => m.type === 'footer')
    .map((m) => ({ backend: m.backend, counts: m.counts }))
    .sort((a, b) => (a.backend < b.backend ? -1 : 1));
