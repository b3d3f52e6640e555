// The official Node binary a target's executable starts from: the host's from node_modules, a foreign one unpacked
// from the tarball scripts/binary/fetch-nodes.mjs kept at `npm ci` (offline: nothing is fetched here).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TARGETS, foreignTarball, lockedNode } from './targets.mjs';

/** Returns `{ file, version }`: the target's Node executable and its version, checked against the lockfile. */
export function targetNode(root, target, work) {
  const t = TARGETS[target];
  const locked = lockedNode(root, target);
  if (t.host) {
    const file = join(root, 'node_modules', t.pkg, t.bin);
    if (!existsSync(file)) throw new Error(`BUILD_NODE_MISSING: ${file}: run npm ci (devDependency ${t.pkg})`);
    return { file, version: locked.version };
  }
  const tgz = foreignTarball(root, target, locked.version);
  if (!existsSync(tgz))
    throw new Error(
      `BUILD_NODE_MISSING: ${tgz}: npm ci keeps it (postinstall scripts/binary/fetch-nodes.mjs; it needs the registry once)`,
    );
  const [algo, want] = locked.integrity.split('-', 2);
  if (createHash(algo).update(readFileSync(tgz)).digest('base64') !== want)
    throw new Error(`BUILD_NODE_INTEGRITY: ${tgz} does not match package-lock.json; delete it and run npm ci`);
  const dir = join(work, `node-${target}`);
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('tar', ['-xzf', tgz, '-C', dir, `package/${t.bin}`], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`BUILD_NODE_UNPACK: tar -xzf ${tgz}: ${r.stderr || r.error}`);
  return { file: join(dir, 'package', t.bin), version: locked.version };
}
