import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Finding } from '../verify/finding.ts';
import type { At } from './parse-render-reply.ts';
import { renderFinding } from './render-rules.ts';

/** Paths a render's reply names, placed in a current-edition run (check-render-reply.ts, check-render-error.ts). */

/** One reply being checked against one current-edition run directory. */
export interface RenderCheck {
  runDir: string;
  projectDir: string;
  node: string;
  file: string;
  out: Finding[];
}

/** Where a path the reply names lies: inside the node's workspace, in committed state, or elsewhere. */
export function placeOf(
  c: RenderCheck,
  path: string,
): { abs: string; where: 'workspace' | 'world-model' | 'elsewhere' } {
  const runRel = path.replace(/^<openprose-root>\//, '');
  const abs = isAbsolute(runRel)
    ? runRel
    : /^runs\//.test(runRel) || /^state\//.test(runRel)
      ? resolve(c.projectDir, runRel)
      : resolve(c.runDir, runRel);
  const inside = (dir: string) => {
    const r = relative(dir, abs);
    return r === '' || (!r.startsWith('..') && !isAbsolute(r));
  };
  if (inside(join(c.runDir, 'world-model')) || inside(join(c.projectDir, 'state')))
    return { abs, where: 'world-model' };
  return { abs, where: inside(join(c.runDir, 'workspace', c.node)) ? 'workspace' : 'elsewhere' };
}

/** A path the render says it wrote: in its workspace (never world-model/), and there. */
export function checkWorkspaceFile(
  p: At,
  c: RenderCheck,
  missing: 'render.output-missing' | 'render.delegate-request' | 'render.error-file',
  what: string,
): boolean {
  const where = { file: c.file, line: p.line };
  const place = placeOf(c, p.value);
  if (place.where === 'world-model') {
    c.out.push(
      renderFinding(
        'render.world-model-write',
        `${what} is ${p.value}: a render writes only its workspace; the VM commits the world-model`,
        where,
        `write it to workspace/${c.node}/ and let the VM publish it (commit_world_model)`,
      ),
    );
    return false;
  }
  if (place.where === 'elsewhere') {
    c.out.push(
      renderFinding('render.output-outside-workspace', `${what} is ${p.value}, outside workspace/${c.node}/`, where),
    );
    return false;
  }
  if (!isFile(place.abs)) {
    c.out.push(renderFinding(missing, `${what}: ${p.value} does not exist`, where));
    return false;
  }
  return true;
}

export const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

export function readTrimmed(p: string): string | undefined {
  if (!isFile(p)) return undefined;
  try {
    return readFileSync(p, 'utf8').trim();
  } catch {
    return undefined;
  }
}
