import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/** Whether a process of this machine has that pid (a lock left by a killed spec worker is taken over). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Runs `build` holding dist/.build-lock: the builds share dist/.build/, so two spec workers building at once broke one
 * of them (postject: "Can't read and write to target executable"). The lock lets the e2e specs run side by side: the
 * second waits for the first's build, then finds its binary fresh.
 */
function withBuildLock<T>(build: () => T): T {
  const lock = join(REPO, 'dist', '.build-lock');
  mkdirSync(join(REPO, 'dist'), { recursive: true });
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let holder = NaN;
      try {
        holder = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {
        // The holder has made the directory but not written its pid yet: wait for it.
      }
      if (Number.isInteger(holder) && !alive(holder)) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`${lock} is held by process ${holder} for over 15 minutes`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * The built binary of `target`, fresh: built now when it is missing or older than anything it is made of, so the
 * e2e specs never test a stale binary and never skip (the build is offline, ~30 s; win-x64 ~1 min more).
 */
export function ensureBinary(target = 'linux-x64'): string {
  const out = binaryPath(target);
  const inputs = ['src', 'conformance', 'scripts/build-binary.mjs', 'scripts/binary', 'package-lock.json']
    .map((p) => join(REPO, p))
    .filter(existsSync);
  const fresh = () => existsSync(out) && statSync(out).mtimeMs >= Math.max(...inputs.map(newestMtime));
  if (fresh()) return out;
  return withBuildLock(() => {
    // Another worker may have built it while this one waited for the lock.
    if (fresh()) return out;
    const r = spawnSync(process.execPath, [join(REPO, 'scripts', 'build-binary.mjs'), '--target', target], {
      cwd: REPO,
      encoding: 'utf8',
    });
    if (r.status !== 0)
      throw new Error(`npm run build -- --target ${target} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
    return out;
  });
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
