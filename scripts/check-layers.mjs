#!/usr/bin/env node
// Fails when an import crosses a layer the wrong way, or when files import each other in a circle (the rules and the picture: docs/architecture.md). Run by
// `npm test`; `node scripts/check-layers.mjs DIR` checks another copy of src/ (spec/layers plants bad imports in one).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// The folder to check: src/ by default; a spec passes a copy with a planted import to see the check fail.
const src = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'src'));

// Which src/ folders each layer may import. A backend may never import another backend.
const RULES = {
  core: ['core'],
  io: ['core', 'io'],
  canon: ['core', 'canon'],
  fingerprint: ['core', 'canon', 'fingerprint'],
  transcript: ['core', 'transcript'],
  plugin: ['core', 'plugin'],
  conformance: ['core', 'canon', 'conformance', 'session', 'verify/finding.ts'],
  sqlite: ['core', 'io', 'sqlite'],
  verify: ['core', 'canon', 'fingerprint', 'transcript', 'verify', 'sqlite/index.ts'],
  session: ['core', 'session', 'sqlite/index.ts', 'verify'],
  bench: ['core', 'canon', 'fingerprint', 'io', 'bench', 'backends'],
  backends: ['core', 'canon', 'io', 'transcript', 'sqlite/index.ts'],
  selftest: ['core', 'canon', 'io', 'backends', 'conformance', 'selftest'],
  cli: null, // the CLI wires everything
};
// node: modules with I/O that the core may not touch.
const IO_MODULES = /^node:(fs|fs\/promises|child_process|net|http|https|worker_threads|os|sqlite)$/;
// The canonical formats are pure: reading trees (files, threads) is the fingerprint engine's (src/fingerprint/).
const CANON_FORBIDDEN = /^node:(fs|fs\/promises|worker_threads)$/;

function files(dir) {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

function layerOf(rel) {
  const parts = rel.split(sep);
  if (parts[0] === 'backends') return { layer: 'backends', own: parts.length > 2 ? `backends/${parts[1]}` : undefined };
  return { layer: parts[0] };
}

/** Every strongly connected set of two or more files (Tarjan): each is a circle of imports. */
function circles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const set = [];
    for (let w; w !== v;) set.push((w = stack.pop()));
    if (set.length > 1) found.push(set.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const problems = [];
// Imports between files of src/, type-only ones included: a circle of types is still two rooms leaning on each other.
const graph = new Map();
for (const file of files(src)) {
  const rel = relative(src, file);
  const { layer, own } = layerOf(rel);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(
    /(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
  )) {
    const spec = m[1] ?? m[2];
    if (spec.startsWith('.')) {
      const target = relative(src, resolve(dirname(file), spec));
      graph.set(rel, [...(graph.get(rel) ?? []), target]);
      if (target.startsWith('..')) {
        problems.push(`${rel}: imports ${spec}, outside src/`);
        continue;
      }
      const allowed = RULES[layer];
      if (allowed === undefined) {
        problems.push(`${rel}: layer "${layer}" has no rule in scripts/check-layers.mjs`);
        continue;
      }
      if (allowed === null) continue;
      const ok =
        allowed.some((a) => target === a || target.startsWith(a + sep)) || (own && target.startsWith(own + sep));
      if (!ok) problems.push(`${rel}: ${layer} may not import ${target}`);
    } else if (layer === 'core' && IO_MODULES.test(spec)) {
      problems.push(`${rel}: the core does no I/O but imports ${spec}`);
    } else if (layer === 'canon' && CANON_FORBIDDEN.test(spec)) {
      problems.push(`${rel}: canon holds pure formats but imports ${spec}`);
    }
  }
}
for (const set of circles(graph)) problems.push(`these files import each other in a circle: ${set.join(', ')}`);
if (problems.length) {
  console.error(`layer check: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('layer check: ok');
