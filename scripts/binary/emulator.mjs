// How this linux-x64 machine runs a target's executable: natively, under qemu-user (arm64 Linux, with Debian's
// aarch64 libraries as its root), or under wine. Shared by the build's probe and the e2e spec.
import { existsSync } from 'node:fs';
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
 * `{ run: [cmd, ...prefixArgs] }` to start a target's executable here, or `{ missing: reason }`. The command is an
 * absolute path, so callers can run it with an empty PATH.
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
    return { run: [wine] };
  }
  return { missing: `unknown target ${target}` };
}
