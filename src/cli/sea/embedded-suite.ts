import { existsSync, lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SuiteCache } from '../../conformance/suite-cache.ts';

/** The `suite.json` asset: the build's key (a hash of every file) and each conformance/ file as text. */
export interface SuiteBundle {
  key: string;
  files: Record<string, string>;
}

/**
 * Where the binary unpacks its conformance suite: a per-user cache folder keyed by the suite's hash, so a later
 * run pays one `existsSync` and a new build never reads an old suite. PROSE_STATE_CACHE_DIR moves it.
 */
export function suiteCacheDir(key: string, env: Record<string, string | undefined>): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const base = env.PROSE_STATE_CACHE_DIR || join(tmpdir(), `prose-state-${uid}`);
  return join(base, `suite-${key}`);
}

/**
 * The binary's parsed-suite cache: snapshots of the suite unpacked at `suiteDir`, in the private cache folder that
 * holds it, keyed on the build (`buildKey` covers the sources the loader is compiled from).
 */
export function embeddedSuiteCache(suiteDir: string, buildKey: string): SuiteCache {
  return { dir: join(dirname(suiteDir), 'parsed'), codeKey: buildKey, within: suiteDir };
}

/**
 * Returns the unpacked suite directory, writing it first when missing. The files go into a sibling temp dir that
 * is renamed into place, so a concurrent run never sees half a suite (a lost rename race is fine: same bytes).
 * `load` is only called on a miss, so the 250 KB JSON is not parsed on the fast path.
 */
export function unpackSuite(key: string, load: () => SuiteBundle, env: Record<string, string | undefined>): string {
  const dir = suiteCacheDir(key, env);
  if (existsSync(join(dir, '.complete'))) return dir;
  const base = dirname(dir);
  mkdirSync(base, { recursive: true, mode: 0o700 });
  // In a shared /tmp another user could have planted the folder: use it only if it is ours and private. Windows
  // has no uid or mode bits to check (lstat reports 0 and 0o666), and its temp folder is the user's own
  // (%LOCALAPPDATA%\Temp), so the check is POSIX only (decisions platform-cache-dir).
  if (process.platform === 'win32') return unpackInto(dir, load);
  const st = lstatSync(base);
  const uid = typeof process.getuid === 'function' ? process.getuid() : st.uid;
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o022) !== 0) {
    throw new Error(`cache folder ${base} is not a private folder owned by uid ${uid}; set PROSE_STATE_CACHE_DIR`);
  }
  return unpackInto(dir, load);
}

function unpackInto(dir: string, load: () => SuiteBundle): string {
  const bundle = load();
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  for (const [rel, text] of Object.entries(bundle.files)) {
    const target = join(tmp, rel);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  writeFileSync(join(tmp, '.complete'), `${bundle.key}\n`);
  try {
    renameSync(tmp, dir);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(join(dir, '.complete'))) throw err;
  }
  return dir;
}
