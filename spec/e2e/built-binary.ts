import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { withFileLock } from '../../src/io/file-lock.ts';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a build script in plain JavaScript, shared with the build that writes the stamps
import { inputsHash, inputsStamp } from '../../scripts/binary/inputs-hash.mjs';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const BINARY = join(REPO, 'dist', 'prose-state');

/** Where `npm run build -- --target T` writes T's binary (linux-x64 is also dist/prose-state). */
export function binaryPath(target: string): string {
  return target === 'linux-x64'
    ? BINARY
    : join(REPO, 'dist', `prose-state-${target}${target.startsWith('win-') ? '.exe' : ''}`);
}

/** Whether `target`'s binary was built from what the checkout holds now (the stamp the build wrote beside it). */
function fresh(target: string, inputs: string): boolean {
  const stamp = inputsStamp(binaryPath(target));
  return existsSync(binaryPath(target)) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === inputs;
}

/**
 * The built binaries of `targets`, fresh: the ones missing, or built from other sources than the checkout's (a content
 * hash of what a binary is made of, scripts/binary/inputs-hash.mjs), are built now in ONE build (one bundle, one blob
 * per kind), so the e2e specs never test a stale binary and never skip. A build stage before the specs (.ci/run) or a
 * copied tree keeps its binaries: the hash, not a file time, decides. The foreign binaries are not started by the
 * build (--no-foreign-probe): the spec that wants them starts each itself. Builds share dist/.build/, so they take the
 * project's cross-process lock (src/io/file-lock.ts): two spec workers building at once broke one of them (postject:
 * "Can't read and write to target executable"); the second now waits for the first's build, then builds only what is
 * still stale.
 */
export async function ensureBinaries(targets: string[]): Promise<string[]> {
  const paths = targets.map(binaryPath);
  const stale = () => {
    const inputs = inputsHash(REPO) as string;
    return targets.filter((t) => !fresh(t, inputs));
  };
  if (!stale().length) return paths;
  mkdirSync(join(REPO, 'dist'), { recursive: true });
  return withFileLock(
    join(REPO, 'dist', '.build-lock'),
    () => {
      const todo = stale();
      if (!todo.length) return paths;
      const args = [...todo.flatMap((t) => ['--target', t]), '--no-foreign-probe'];
      const r = spawnSync(process.execPath, [join(REPO, 'scripts', 'build-binary.mjs'), ...args], {
        cwd: REPO,
        encoding: 'utf8',
      });
      if (r.status !== 0)
        throw new Error(`npm run build -- ${args.join(' ')} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
      return paths;
    },
    { timeoutMs: 15 * 60_000 },
  );
}

/** The built binary of `target`, fresh (ensureBinaries). */
export async function ensureBinary(target = 'linux-x64'): Promise<string> {
  return (await ensureBinaries([target]))[0]!;
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
