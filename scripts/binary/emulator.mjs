// How this linux-x64 machine runs a target's executable: natively, under qemu-user (arm64 Linux, with Debian's
// aarch64 libraries as its root), or under wine. Shared by the build's probe and the e2e spec.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const AARCH64_ROOT = '/usr/aarch64-linux-gnu'; // libc6-arm64-cross, libstdc++6-arm64-cross

function onPath(name, env = process.env) {
  return (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((d) => join(d, name))
    .find((f) => existsSync(f));
}

/**
 * A wine prefix of our own (never the user's ~/.wine), told to be Windows 10: a new prefix says Windows 7, and
 * Node 24 refuses to start below Windows 10 ("Node.js is only supported on Windows 10, Windows Server 2016, or
 * higher"). Made once (~15 s), then reused.
 */
function winePrefix(wine) {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const prefix = join(tmpdir(), `prose-state-wine-${uid}`);
  const env = { ...process.env, WINEPREFIX: prefix, WINEDEBUG: '-all' };
  if (!existsSync(join(prefix, '.win10'))) {
    mkdirSync(prefix, { recursive: true, mode: 0o700 });
    const r = spawnSync(wine, ['winecfg', '-v', 'win10'], { env, encoding: 'utf8', timeout: 300_000 });
    if (r.status !== 0) return { missing: `wine could not set up ${prefix}: ${(r.stderr || String(r.error)).trim()}` };
    mkdirSync(join(prefix, '.win10'));
  }
  return { run: [wine], env: { WINEPREFIX: prefix, WINEDEBUG: '-all' } };
}

/**
 * `{ run: [cmd, ...prefixArgs], env? }` to start a target's executable here (env: variables the emulator itself
 * needs), or `{ missing: reason }`. The command is an absolute path, so callers can run it with an empty PATH.
 */
export function emulatorFor(target) {
  if (target === 'linux-x64') return { run: [] };
  if (target === 'linux-arm64') {
    const qemu = onPath('qemu-aarch64-static') ?? onPath('qemu-aarch64');
    if (!qemu) return { missing: 'qemu-aarch64-static not on PATH (apt-get install qemu-user-static)' };
    if (!existsSync(join(AARCH64_ROOT, 'lib', 'ld-linux-aarch64.so.1')))
      return {
        missing: `${AARCH64_ROOT} has no aarch64 glibc (apt-get install libc6-arm64-cross libstdc++6-arm64-cross libgcc-s1-arm64-cross)`,
      };
    return { run: [qemu, '-L', AARCH64_ROOT] };
  }
  if (target === 'win-x64') {
    const wine = onPath('wine64') ?? onPath('wine');
    if (!wine) return { missing: 'wine not on PATH (apt-get install wine64)' };
    return winePrefix(wine);
  }
  return { missing: `unknown target ${target}` };
}
