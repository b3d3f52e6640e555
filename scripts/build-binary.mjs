#!/usr/bin/env node
// `npm run build [-- --target linux-x64|linux-arm64|win-x64 ... | --all]`: dist/prose-state-<target>[.exe], a Node
// single executable application per target, each from that platform's official Node 24 (npm packages pinned in the
// lockfile), built offline on linux-x64. linux-x64 is also dist/prose-state. See docs/binary.md.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
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
import { emulatorFor } from './binary/emulator.mjs';
import { inputsHash, inputsStamp } from './binary/inputs-hash.mjs';
import { targetNode } from './binary/node-binary.mjs';
import { suiteAsset } from './binary/suite-asset.mjs';
import { TARGETS } from './binary/targets.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const dist = join(root, 'dist');
const work = join(dist, '.build');
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

function step(label, fn) {
  const t0 = performance.now();
  const r = fn();
  const done = (v) => (console.log(`build: ${label} (${Math.round(performance.now() - t0)} ms)`), v);
  return r instanceof Promise ? r.then(done) : done(r);
}

function parseArgs(argv) {
  const picked = [];
  let probeForeign = true;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--all') picked.push(...Object.keys(TARGETS));
    // The e2e specs start every foreign binary themselves; starting it here too cost them an emulated start each.
    else if (a === '--no-foreign-probe') probeForeign = false;
    else if (a === '--target' || a.startsWith('--target=')) {
      const t = a === '--target' ? argv[++i] : a.slice('--target='.length);
      if (!TARGETS[t]) usage(`unknown target ${JSON.stringify(t)}`);
      picked.push(t);
    } else usage(`unknown option ${JSON.stringify(a)}`);
  }
  return { targets: [...new Set(picked.length ? picked : ['linux-x64'])], probeForeign };
}

function usage(msg) {
  const targets = Object.keys(TARGETS).join(', ');
  console.error(`build: BUILD_USAGE: ${msg}; targets: ${targets} (--target T, or --all; --no-foreign-probe)`);
  process.exit(2);
}

const { targets, probeForeign } = parseArgs(process.argv.slice(2));
if (process.platform !== 'linux' || process.arch !== 'x64')
  throw new Error(`build-binary runs on linux-x64 only, not ${process.platform}-${process.arch}`);
const host = targetNode(root, 'linux-x64', work); // makes every blob
// Taken before anything is read, so a source changed during the build leaves a stamp that no longer matches.
const inputs = inputsHash(root);
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

const suite = suiteAsset(join(root, 'conformance'));
writeFileSync(join(work, 'suite.json'), suite.json);
const bundleFile = join(work, 'prose-state.cjs');
await step(`bundle src/cli/sea-entry.ts (suite ${suite.key}, ${suite.count} files)`, () =>
  bundleCli({ entry: join(root, 'src/cli/sea-entry.ts'), outfile: bundleFile, suiteKey: suite.key, buildKey: inputs }),
);

/**
 * The SEA blob, made by the pinned linux-x64 Node 24 (never the `node` on PATH). With `useCodeCache` the blob holds
 * V8 code compiled for this CPU and this exact V8, which another platform rejects; without it (and without a
 * snapshot) the blob is the script and the assets only, the same bytes whatever platform makes it (measured: the
 * arm64 Node under qemu writes an identical file), so it serves every foreign target.
 */
function makeBlob(name, useCodeCache) {
  const config = {
    main: bundleFile,
    output: join(work, `${name}.blob`),
    disableExperimentalSEAWarning: true,
    useCodeCache,
    useSnapshot: false,
    assets: {
      'sqlite3.wasm': require.resolve('@sqlite.org/sqlite-wasm/sqlite3.wasm'),
      'suite.json': join(work, 'suite.json'),
    },
  };
  const file = join(work, `${name}.sea-config.json`);
  writeFileSync(file, JSON.stringify(config, null, 2));
  step(`sea blob ${name} (Node ${host.version}, code cache ${useCodeCache ? 'on' : 'off'})`, () =>
    execFileSync(host.file, ['--experimental-sea-config', file], { stdio: ['ignore', 'ignore', 'inherit'] }),
  );
  return readFileSync(config.output);
}
const blobs = {};
const blobFor = (target) =>
  TARGETS[target].host ? (blobs.host ??= makeBlob('host', true)) : (blobs.portable ??= makeBlob('portable', false));

const { inject } = require('postject');
const built = [];
for (const target of targets) {
  const t = TARGETS[target];
  const node = targetNode(root, target, work);
  const tmp = join(work, `prose-state-${target}${t.exe}`);
  copyFileSync(node.file, tmp);
  chmodSync(tmp, 0o755);
  // Strip BEFORE injecting: stripping an injected binary corrupts the blob's note and the binary segfaults.
  if (t.strip)
    step(`${target}: ${t.strip}`, () => {
      const r = spawnSync(t.strip, [tmp], { stdio: 'inherit' });
      if (r.error || r.status !== 0)
        console.warn(`build: warning: \`${t.strip}\` unavailable or failed (binutils); ${target} stays unstripped`);
    });
  // postject finds the format itself: an ELF note for Linux, a PE resource (RCDATA NODE_SEA_BLOB) for Windows.
  await step(`${target}: postject into Node ${node.version}`, () =>
    inject(tmp, 'NODE_SEA_BLOB', blobFor(target), { sentinelFuse: FUSE }),
  );
  const out = join(dist, `prose-state-${target}${t.exe}`);
  rmSync(inputsStamp(out), { force: true });
  renameSync(tmp, out);
  if (target === 'linux-x64') {
    rmSync(join(dist, 'prose-state'), { force: true });
    linkSync(out, join(dist, 'prose-state'));
  }
  built.push({ target, out, version: node.version });
}
rmSync(work, { recursive: true, force: true });

// Each binary answers --version with an empty environment, where this machine can run it.
for (const { target, out, version } of built) {
  const size = `${(statSync(out).size / 1e6).toFixed(1)} MB, Node ${version}`;
  if (!TARGETS[target].host && !probeForeign) {
    console.log(`build: wrote ${out} (${size}); not started here (--no-foreign-probe)`);
    continue;
  }
  const emu = emulatorFor(target);
  if (emu.missing) {
    console.log(`build: wrote ${out} (${size}); not run here: ${emu.missing}`);
    continue;
  }
  const [cmd, ...pre] = emu.run.length ? emu.run : [out];
  const probe = spawnSync(cmd, emu.run.length ? [...pre, out, '--version'] : ['--version'], {
    encoding: 'utf8',
    env: { ...emu.env },
    timeout: 120_000,
  });
  if (probe.status === 0) console.log(`build: wrote ${out} (${size}): ${probe.stdout.trim()}`);
  else if (target === 'linux-x64') throw new Error(`built binary failed --version: ${probe.stderr}`);
  // A foreign binary its emulator cannot start is still built; the e2e spec says why it is not run.
  else console.log(`build: wrote ${out} (${size}); ${cmd} could not run it: ${lastLine(probe)}`);
}

// Stamped last: a binary whose --version failed above has no stamp, so the e2e specs build it again.
for (const { out } of built) writeFileSync(inputsStamp(out), `${inputs}\n`);

function lastLine(r) {
  const text = `${r.stderr ?? ''}${r.error ?? ''}`.trim().split('\n');
  return text.find((l) => /Fatal|error/i.test(l)) ?? text.at(-1) ?? `exit ${r.status}`;
}
