import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifactAddress } from '../canon/opwm1.ts';
import { show } from './match.ts';

/**
 * `dir` holds exactly `wanted`, dotfiles included (a layout step's `entries:`). Undefined when it does; otherwise
 * the failure names the extra and the missing entries.
 */
export function checkEntries(dir: string, what: string, wanted: readonly string[]): string | undefined {
  const seen = readdirSync(dir).sort();
  const extra = seen.filter((e) => !wanted.includes(e));
  const missing = wanted.filter((e) => !seen.includes(e));
  if (extra.length === 0 && missing.length === 0) return undefined;
  const parts = [
    ...(extra.length > 0 ? [`extra ${extra.map((e) => show(e)).join(', ')}`] : []),
    ...(missing.length > 0 ? [`missing ${missing.map((e) => show(e)).join(', ')}`] : []),
  ];
  return `${what} should hold exactly ${show([...wanted])}: ${parts.join('; ')} (it holds ${show(seen)})`;
}

/**
 * The OPWM1 address of `dir` (every file under it but the root's `stamp`) equals the text of `stamp`, one trailing
 * newline allowed (a layout step's `hashesTo:`, as a world-model node's `.version`).
 */
export function checkHashesTo(dir: string, what: string, stamp: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, stamp), 'utf8');
  } catch {
    return `${what}/${stamp} does not exist, so nothing names the directory's address`;
  }
  const files: Record<string, Uint8Array> = {};
  const odd = collect(dir, '', files, stamp);
  if (odd !== undefined) return `${what} cannot be hashed: ${odd} is neither a file nor a directory`;
  const address = artifactAddress(files);
  const named = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (named === address) return undefined;
  return `${what}/ hashes to ${address} (files ${show(Object.keys(files).sort())}) but ${stamp} says ${show(text)}`;
}

/** Every regular file under `dir` by its `/`-path, but the root's `skip`; the first entry that is neither, if any. */
function collect(dir: string, at: string, files: Record<string, Uint8Array>, skip: string): string | undefined {
  for (const name of readdirSync(dir)) {
    const rel = at === '' ? name : `${at}/${name}`;
    if (rel === skip) continue;
    const st = lstatSync(join(dir, name));
    if (st.isDirectory()) {
      const odd = collect(join(dir, name), rel, files, skip);
      if (odd !== undefined) return odd;
    } else if (st.isFile()) files[rel] = readFileSync(join(dir, name));
    else return rel;
  }
  return undefined;
}
