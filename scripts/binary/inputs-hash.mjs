// What a built binary is made of, as one content hash. The build writes it beside each binary (`<binary>.inputs`) and
// the e2e specs compare it with the checkout's, so a binary is rebuilt when what it is made of changed, not when a
// file's time did: a copied or re-checked-out tree, or a build stage before the specs (.ci/run), keeps its binaries.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Everything a binary is built from: the sources, the suite asset, the build itself, and the lockfile (packages). */
export const BINARY_INPUTS = ['src', 'conformance', 'scripts/build-binary.mjs', 'scripts/binary', 'package-lock.json'];

/** The files at `path`: itself, or every file under it; nothing when it is missing. */
function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() || e.isFile() ? files(join(path, e.name)) : [],
  );
}

/** sha256 over every input file's path (relative, with `/`) and bytes, in path order. */
export function inputsHash(root) {
  const hash = createHash('sha256');
  const all = BINARY_INPUTS.flatMap((input) => files(join(root, input))).map((abs) => ({
    abs,
    rel: relative(root, abs).split(sep).join('/'),
  }));
  for (const { abs, rel } of all.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))) {
    const bytes = readFileSync(abs);
    hash.update(`${rel}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return hash.digest('hex');
}

/** Where the build keeps the inputs hash of the binary at `binary`. */
export const inputsStamp = (binary) => `${binary}.inputs`;
