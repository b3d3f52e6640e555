// Collects conformance/** (cases, schemas, reference plugins) into the binary's `suite.json` asset.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? walk(p) : e.isFile() ? [p] : [];
  });
}

/** Returns `{ key, json }`: key is a short sha256 over every path and content, so a changed suite gets a new cache dir. */
export function suiteAsset(conformanceDir) {
  const files = {};
  const hash = createHash('sha256');
  for (const abs of walk(conformanceDir).sort()) {
    const rel = relative(conformanceDir, abs).split(sep).join('/');
    const text = readFileSync(abs, 'utf8');
    files[rel] = text;
    hash.update(`${rel}\0${text.length}\0${text}`);
  }
  const key = hash.digest('hex').slice(0, 16);
  return { key, count: Object.keys(files).length, json: JSON.stringify({ key, files }) };
}
