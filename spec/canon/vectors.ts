import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The outside golden vectors (OpenProse's own Reactor state dirs), kept in the repository under vectors/reactor
 * (vectors/README.md). A missing folder fails the spec: golden vectors are not optional.
 */
export const REACTOR_DIR = fileURLToPath(new URL('../../vectors/reactor/', import.meta.url)).replace(/\/$/, '');

export function reactorDirs(): string[] {
  if (!existsSync(REACTOR_DIR))
    throw new Error(`golden vectors not found at ${REACTOR_DIR}: they belong to the checkout (vectors/README.md)`);
  return readdirSync(REACTOR_DIR)
    .filter((d) => statSync(join(REACTOR_DIR, d)).isDirectory())
    .sort();
}

/** Every versions/*.bin of every Reactor vector dir. */
export function allBins(): string[] {
  const out: string[] = [];
  for (const d of reactorDirs()) {
    const wm = join(REACTOR_DIR, d, 'world-models');
    for (const node of readdirSync(wm)) {
      const v = join(wm, node, 'versions');
      if (existsSync(v)) for (const b of readdirSync(v)) out.push(join(v, b));
    }
  }
  return out;
}

export const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Asserts `fn` throws a ProseError with `code`; returns it. */
export function throwsCode(
  fn: () => unknown,
  code: string,
): { code: string; message: string; location?: { field?: string; file?: string } } {
  try {
    fn();
  } catch (err) {
    const e = err as { code?: string; message: string };
    if (e.code !== code) throw new Error(`expected ${code}, got ${e.code ?? 'no code'}: ${e.message}`);
    return e as { code: string; message: string };
  }
  throw new Error(`expected ${code}, nothing was thrown`);
}
